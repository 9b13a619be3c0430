/**
 * "Save as a regression test" (dashboard ⇄ proxy), beside contract/api.ts:
 * - `GET /api/regression-test?filter=EXPR | conversation=KEY | exchange=ID` → RegressionTestPlan:
 *   which calls the golden capture holds, the volatile paths the capture shows, and the CI snippet;
 * - `GET /api/regression-test/golden?…same…` → the golden capture itself: mcpscope JSONL (the export
 *   format `mcpscope verify` reads), redacted, holding the chosen calls and their sessions' handshakes.
 */
import type { VolatilePath } from '../cassette/volatile-detect.js';

export interface RegressionTestPlan {
  /** What was chosen, in words ("the filter tool:get_*", "conversation c3", "exchange #12"). */
  scope: string;
  /** Client calls the golden capture holds (handshakes not counted), and their sessions. */
  calls: number;
  sessions: number;
  /** Calls that did not end ok in the capture: `--expect ok` fails them until they do. */
  failedInCapture: number;
  /** Paths that varied between two answers to the same request in this capture, as `--ignore`. */
  ignore: VolatilePath[];
  /** The golden file's suggested name. */
  fileName: string;
  /** The URL the snippet's `MCP_URL` defaults to (the server this capture went to, or a placeholder). */
  targetUrl: string;
  /** One shell command: `mcpscope verify golden.jsonl --target "$MCP_URL" --expect ok --report junit.xml …`. */
  command: string;
  /** A GitHub Actions workflow running that command, annotations on (`--format github`). */
  workflow: string;
}
