/**
 * `verify_capture`: `mcpscope verify` on a selection of the capture, for an agent that has just
 * changed the server: the captured client calls are played again against the live server and
 * each answer compared with the captured one (same, fixed, regressed, still failing).
 *
 * The server it plays against is never the model's choice: it is the upstream the running
 * mcpscope proxies, or the `--verify-target` the user gave `mcpscope mcp` (the dashboard's rule
 * for replay, which never relays to a destination a request names). How the run happens is
 * handed in (compose/ builds it from the verify feature).
 */
import { z } from 'zod';
import { parseFilter, type Filter } from '@mcpscope/protocol';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toolError, toolResult } from './tool-result.js';
import { plainRedactor } from './agent-redaction.js';
import { CAPTURED_NOTE } from './captured.js';

export const VERDICTS = ['same', 'fixed', 'changed', 'regressed', 'failing', 'skipped', 'error'] as const;

export interface AgentVerifyRow {
  exchangeId: string;
  call: string;
  before: string;
  after: string | null;
  verdict: (typeof VERDICTS)[number];
  detail: string;
}

export interface AgentVerifyResult {
  target: string;
  rows: AgentVerifyRow[];
  warnings: string[];
  couldNotRun?: string;
  durationMs: number;
}

export type AgentVerify = (options: { only: Filter | null; expectOk: boolean }) => Promise<AgentVerifyResult>;

export function registerVerifyTool(server: McpServer, verify: AgentVerify, target: string): void {
  server.registerTool(
    'verify_capture',
    {
      title: 'Verify the server against the capture',
      description: `Plays the captured client calls again against the live server (${target}) and compares each answer with the captured one: same, fixed (failed before, works now), changed (only new fields: additive, not a failure), regressed (worked before, differs or fails now), failing (still fails, with expectOk), skipped or error. Use it after changing the server, with only set to the calls you care about (the filter language of search_exchanges, e.g. "tool:search" or "status:err"); without only, every captured session is replayed in order, which can change server state. Each session's handshake runs as captured. ${CAPTURED_NOTE}`,
      inputSchema: {
        only: z.string().default('').describe('Filter selecting the calls to re-run; empty for all.'),
        expectOk: z.boolean().default(false).describe('Every selected call must now succeed (a call that still fails is "failing").'),
      },
      outputSchema: {
        target: z.string(),
        counts: z.object(Object.fromEntries(VERDICTS.map((v) => [v, z.number()])) as Record<(typeof VERDICTS)[number], z.ZodNumber>),
        rows: z.array(
          z.object({
            exchangeId: z.string().describe('The captured exchange (get_exchange reads it).'),
            before: z.string(),
            after: z.string().nullable(),
            verdict: z.enum(VERDICTS),
            captured: z.object({
              call: z.string(),
              detail: z.string().describe('The first differing JSON path, or why the row is what it is.'),
            }),
          }),
        ),
        captured: z.object({ warnings: z.array(z.string()) }),
        durationMs: z.number(),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async ({ only, expectOk }) => {
      const parsed = parseFilter(only);
      if (!parsed.ok) return toolError(`The only filter does not parse at character ${parsed.error.position + 1}: ${parsed.error.message}`, { position: parsed.error.position, length: parsed.error.length });
      const result = await verify({ only: parsed.filter, expectOk });
      if (result.couldNotRun !== undefined) return toolError(`Verify could not run: ${result.couldNotRun}.`);
      const counts = Object.fromEntries(VERDICTS.map((v) => [v, result.rows.filter((r) => r.verdict === v).length])) as Record<(typeof VERDICTS)[number], number>;
      const redactor = plainRedactor();
      const rows = result.rows.map(({ exchangeId, before, after, verdict, call, detail }) => ({ exchangeId, before, after, verdict, captured: { call: redactor.text(call), detail: redactor.text(detail) } }));
      const out = { target: result.target, counts, rows, durationMs: result.durationMs, captured: { warnings: result.warnings.map((w) => redactor.text(w)) } };
      return toolResult(out, (o) => `${VERDICTS.map((v) => `${o.counts[v]} ${v}`).join(', ')} against ${o.target}: ${o.rows.map((r) => `#${r.exchangeId} ${r.before} → ${r.after ?? '—'} ${r.verdict}`).join(', ')}`);
    },
  );
}
