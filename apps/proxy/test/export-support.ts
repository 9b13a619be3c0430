/**
 * Shared by the export tests: API calls with the token, and a normal form of derived views in
 * which capture order stands in for seq numbers and the import prefix is dropped, so a capture
 * and its re-import can be compared field for field.
 */
import type { Diagnostic, ExchangeSummary, Frame, SessionSummary } from '@mcpscope/protocol';
import { createDeriver } from '../src/capture/deriver.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';

export { apiFetch as api } from './support/api.js';

export function allFrames(app: Pick<Mcpscope, 'store'>): Frame[] {
  return [...app.store.select()];
}

export interface DerivedView {
  exchanges: unknown[];
  sessions: unknown[];
  diagnostics: unknown[];
}

/** The derived views of a store, with seqs replaced by capture order and `import:NAME:` removed. */
export function normalisedViews(app: Pick<Mcpscope, 'store'>, importName?: string): DerivedView {
  const frames = allFrames(app);
  const order = new Map(frames.map((f, i) => [f.seq, i + 1]));
  const seq = (s: number | undefined) => (s === undefined ? undefined : order.get(s) ?? `?${s}`);
  const id = (exchangeId: string) => {
    const [s, item] = exchangeId.split('.');
    return item === undefined ? `${seq(Number(s))}` : `${seq(Number(s))}.${item}`;
  };
  const key = (k: string) => (importName && k.startsWith(`import:${importName}:`) ? k.slice(`import:${importName}:`.length) : k);
  const exchanges = app.store
    .exchanges(1_000_000)
    .map((ex: ExchangeSummary) => ({
      ...ex,
      id: id(ex.id),
      sessionKey: key(ex.sessionKey),
      frameSeqs: ex.frameSeqs.map(seq),
      requestSeq: seq(ex.requestSeq),
      responseSeq: seq(ex.responseSeq),
      updatedSeq: seq(ex.updatedSeq),
    }))
    .sort((a, b) => String(a.id).localeCompare(String(b.id), undefined, { numeric: true }));
  const sessions = app.store
    .sessions()
    .map((s: SessionSummary) => ({ ...s, sessionKey: key(s.sessionKey) }))
    .sort((a, b) => a.sessionKey.localeCompare(b.sessionKey));
  const deriver = createDeriver();
  const diagnostics = frames
    .flatMap((f) => deriver.ingest(f).diagnostics)
    .map((d: Diagnostic) => ({ ...d, frameSeq: seq(d.frameSeq), ...(d.exchangeId ? { exchangeId: id(d.exchangeId) } : {}) }));
  return { exchanges, sessions, diagnostics };
}
