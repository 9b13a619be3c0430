// Random bodies at the tap (see fuzz-tap.ts): forwarded unchanged, answered like the upstream,
// recorded verbatim (strict since the store keeps a string "code" on the MCP endpoint as sent).
import { describe } from 'vitest';
import { fuzzTapTests } from './fuzz-tap.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('80-fuzz-tap', 'Fuzz at the proxy boundary');
describe('the tap under random input', () => fuzzTapTests(report, false));
