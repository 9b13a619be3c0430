// PENDING FIX (store): every frame on the MCP endpoint is recorded verbatim. On main the capture
// pipeline decides "MCP or OAuth body?" by looking for "jsonrpc" in the text, so a body on the MCP
// endpoint without it has its `"code": "…"` strings replaced by a redaction marker (shrunk
// counterexample: {"error":{"code":"","message":""}}). Deciding by the frame's path fixes it.
import { describe } from 'vitest';
import { fuzzTapTests } from './fuzz-tap.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('81-fuzz-tap-strict', 'Fuzz at the proxy boundary: strict');
describe('the tap under random input, strictly verbatim', () => fuzzTapTests(report, false));
