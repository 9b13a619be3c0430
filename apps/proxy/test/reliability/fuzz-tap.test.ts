// Random bodies at the tap (see fuzz-tap.ts), tolerating the store's one known rewrite of
// non-JSON-RPC bodies on the MCP endpoint; the strict variant is pending the store fix.
import { describe } from 'vitest';
import { fuzzTapTests } from './fuzz-tap.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('80-fuzz-tap', 'Fuzz at the proxy boundary');
describe('the tap under random input', () => fuzzTapTests(report, true));
