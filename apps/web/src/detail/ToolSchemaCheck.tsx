/**
 * For a tools/call: the tool's inputSchema beside the arguments, with violations marked at their
 * paths, and the structuredContent checked against the outputSchema.
 */
import { useEffect, useState } from 'react';
import type { ExchangeSummary, FrameView, JsonObject } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { JsonTree } from '../ui/JsonTree.js';
import { checkSchema, type SchemaCheck } from './schema-check.js';
import { callParts, findTool, toolsListsBefore } from './tool-schema.js';
import { tooLargeHere, wholeExchange } from '../api/whole-exchange.js';

type Lookup = { state: 'loading' } | { state: 'none' } | { state: 'found'; tool: JsonObject; listId: string };

function useToolDefinition(api: ApiClient, call: ExchangeSummary): Lookup {
  const [lookup, setLookup] = useState<Lookup>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    const name = call.target;
    const lists = name ? toolsListsBefore(useLive.getState().index, call) : [];
    (async () => {
      for (const id of lists) {
        const detail = await wholeExchange(api, id, abort.signal);
        const response = detail.frames.find((f) => f.seq === detail.exchange.responseSeq);
        const tool = response ? findTool(response.raw, name!) : undefined;
        if (tool) return setLookup({ state: 'found', tool, listId: id });
      }
      setLookup({ state: 'none' });
    })().catch(() => !abort.signal.aborted && setLookup({ state: 'none' }));
    return () => abort.abort();
  }, [api, call]);
  return lookup;
}

function Verdict({ check, what }: { check: SchemaCheck; what: string }) {
  if (check.violations.length === 0) {
    return (
      <p className="verdict ok" data-testid="schema-verdict">
        ✓ {what} fit the schema{check.unchecked.length > 0 ? ` (not checked: ${check.unchecked.join(', ')})` : ''}.
      </p>
    );
  }
  return (
    <div className="verdict bad" data-testid="schema-verdict">
      <p>✕ {check.violations.length} violation{check.violations.length === 1 ? '' : 's'} of the schema:</p>
      <ul>
        {check.violations.map((v) => (
          <li key={`${v.path} ${v.message}`}>
            <code>{v.path}</code> {v.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ToolSchemaCheck({ api, ex, frames }: { api: ApiClient; ex: ExchangeSummary; frames: readonly FrameView[] }) {
  const lookup = useToolDefinition(api, ex);
  const requestFrame = frames.find((f) => f.seq === ex.requestSeq);
  const responseFrame = frames.find((f) => f.seq === ex.responseSeq);
  const { args, result } = callParts(requestFrame?.raw, responseFrame?.raw);
  // A body still cut (too large to fetch whole) would read as missing arguments: say so instead.
  const cut = [requestFrame, responseFrame].find((f) => f?.truncated);
  if (cut) {
    return (
      <section className="schema" data-testid="tool-schema">
        <h4>Tool schema</h4>
        <p className="muted" data-testid="schema-too-large">The {cut === requestFrame ? 'request' : 'answer'} is {tooLargeHere(cut.size)}, so it is not checked against the tool's schema here.</p>
      </section>
    );
  }
  if (lookup.state === 'loading') return <section className="schema muted">Looking for the tool’s schema…</section>;
  if (lookup.state === 'none') {
    return (
      <section className="schema" data-testid="tool-schema">
        <h4>Tool schema</h4>
        <p className="muted">No tools/list answer in this session lists “{ex.target}”, so the arguments cannot be checked (a phantom tool, or the list was fetched before capture started).</p>
      </section>
    );
  }
  const input = lookup.tool.inputSchema;
  const inputCheck = checkSchema(input, args, '$.params.arguments');
  const output = lookup.tool.outputSchema;
  const structured = result?.structuredContent;
  return (
    <section className="schema" data-testid="tool-schema">
      <h4>Arguments vs. inputSchema</h4>
      <Verdict check={inputCheck} what="The arguments" />
      <div className="side-by-side">
        <div>
          <h5>arguments</h5>
          <JsonTree value={args ?? {}} marks={inputCheck.violations.map((v) => ({ ...v, path: v.path.replace('$.params.arguments', '$'), severity: 'error' as const }))} />
        </div>
        <div>
          <h5>inputSchema (from tools/list <button type="button" className="link" onClick={() => useUi.getState().select(lookup.listId, true)}>#{lookup.listId}</button>)</h5>
          <JsonTree value={input ?? {}} />
        </div>
      </div>
      {output !== undefined && result && result.isError !== true && (
        <>
          <h4>structuredContent vs. outputSchema</h4>
          {structured === undefined ? (
            <p className="verdict bad" data-testid="output-verdict">✕ The tool declares an outputSchema but the result has no structuredContent.</p>
          ) : (
            <Verdict check={checkSchema(output, structured, '$.result.structuredContent')} what="The structuredContent" />
          )}
        </>
      )}
    </section>
  );
}
