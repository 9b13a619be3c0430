/**
 * `verify_capture` for the agent MCP server, built from the verify feature: the capture (read
 * through the reader, whole) as a cassette, played against `target` with the tap's upstream
 * client, rows described as `mcpscope verify` prints them. `target` is the upstream mcpscope
 * proxies, or the one the user gave `mcpscope mcp --verify-target`; never a model's choice.
 */
import { buildCassette } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { deriverDeps } from '../capture/deriver.js';
import { upstreamRequest, type UpstreamRequest } from '../upstream/upstream-request.js';
import { runVerify } from '../verify/verify-run.js';
import { callName, rowDetail } from '../verify/verify-report.js';
import type { AgentVerify } from '../agent-mcp/index.js';

const TIMEOUT_MS = 60_000;

export function agentVerify(reader: CaptureReader, target: URL, request: UpstreamRequest = upstreamRequest): AgentVerify {
  return async ({ only, expectOk }) => {
    const cassette = buildCassette([...reader.select()], deriverDeps());
    const result = await runVerify({ cassette, target, request, only, compare: { expectOk }, headers: {}, timeoutMs: TIMEOUT_MS });
    return {
      target: target.href,
      rows: result.rows.map((r) => ({ exchangeId: r.exchangeId, call: callName(r), before: r.before, after: r.after ?? null, verdict: r.verdict, detail: rowDetail(r) })),
      warnings: result.warnings,
      ...(result.couldNotRun !== undefined ? { couldNotRun: result.couldNotRun } : {}),
      durationMs: result.durationMs,
    };
  };
}
