/**
 * One HTTP request at the door, whole: who sent it from where, what the tap did with it, its
 * timing and sizes, the headers both ways (secrets were redacted at capture), the bodies kept for
 * OAuth endpoints and metadata documents, and the MCP exchanges its frames belong to. Everything
 * shown is text: nothing a server sent is interpreted as markup.
 */
import type { DoorBody, DoorRecord, DoorRefusals } from '@mcpscope/protocol';
import { clientAddress } from '@mcpscope/protocol';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { useDoor } from '../store/door-store.js';
import { Headers } from '../ui/HttpLayer.js';
import { prettyFrame } from '../ui/pretty-frame.js';
import { bytes, clockTime, ms, recordKind } from './door-looks.js';

const ANSWERS: Record<DoorRecord['answer'], string> = {
  upstream: 'the upstream answered (the tap forwarded it)',
  refused: 'the tap refused it (Host/Origin guard)',
  preflight: 'the tap answered the CORS preflight itself',
  'upstream-failed': 'the upstream could not be reached; the tap answered 502',
  tap: 'the tap answered itself',
};

const ENDS: Record<DoorRecord['end'], string> = {
  open: 'still streaming',
  complete: 'complete',
  'client-gone': 'the client left before the end',
  'upstream-cut': "the upstream's body broke off",
};

function Body({ title, body }: { title: string; body: DoorBody | undefined }) {
  if (!body) return null;
  return (
    <>
      <h5>
        {title} <span className="muted">({bytes(body.size)}{body.truncated ? `; the first ${bytes(body.text.length)} kept` : ''})</span>
      </h5>
      <pre className="door-body" data-testid="door-body">{prettyFrame(body.text)}</pre>
    </>
  );
}

/** The refusals one record stands for: the count, when, and the latest requests. */
function Refusals({ refusals }: { refusals: DoorRefusals }) {
  return (
    <>
      <dt>Refused</dt>
      <dd data-testid="door-refusals">
        {refusals.count === 1 ? 'once' : `${refusals.count} times`}
        {refusals.origin ? ` from origin ${refusals.origin}` : ''}, last at {clockTime(refusals.lastTs)}; later refusals of this Host and Origin are counted here, not recorded one by one
        <ul className="door-refusal-samples">
          {refusals.samples.map((sample, i) => (
            <li key={i} className="mono">
              {clockTime(sample.ts)} {sample.method} {sample.path} <span className="muted">from {sample.address}</span>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

export function RecordDetail({ record }: { record: DoorRecord }) {
  const index = useLive((s) => s.index);
  const exchanges = (record.frameSeqs ?? []).map((seq) => index.get(String(seq))).filter((ex) => ex !== undefined);
  const forwarded = record.requestHeaders['x-forwarded-for'];
  return (
    <aside className="detail door-detail" data-testid="door-detail" aria-label={`HTTP request ${record.id}`}>
      <header className="door-detail-head">
        <strong className="mono">
          {record.method} {record.path}
        </strong>
        <span className="muted"> → {record.status ?? 'no status'}</span>
        <button type="button" className="ghost" aria-label="Close" onClick={() => useDoor.getState().openRecord(undefined)}>
          ✕
        </button>
      </header>
      <dl className="facts">
        <dt>What</dt>
        <dd>{recordKind(record)}</dd>
        <dt>Answer</dt>
        <dd>{ANSWERS[record.answer]}{record.note ? `: ${record.note}` : ''}</dd>
        {record.refusals ? <Refusals refusals={record.refusals} /> : null}
        <dt>Ended</dt>
        <dd>{ENDS[record.end]}</dd>
        <dt>Timing</dt>
        <dd>
          arrived {clockTime(record.ts)}, first byte {ms(record.firstByteMs)}, done {ms(record.endMs)}
        </dd>
        <dt>Sizes</dt>
        <dd>
          {bytes(record.requestBytes)} in, {bytes(record.responseBytes)} out
        </dd>
        <dt>Client</dt>
        <dd className="mono">
          {clientAddress(record)}
          {forwarded ? ` (forwarded; socket ${record.peer.address})` : record.peer.port !== undefined ? `:${record.peer.port}` : ''} · connection {record.peer.connection}
        </dd>
        {record.userAgent && (
          <>
            <dt>User agent</dt>
            <dd className="mono">{record.userAgent}</dd>
          </>
        )}
        {record.mcpSessionId && (
          <>
            <dt>MCP session</dt>
            <dd className="mono">{record.mcpSessionId}</dd>
          </>
        )}
        {exchanges.length > 0 && (
          <>
            <dt>Exchanges</dt>
            <dd>
              {exchanges.map((ex) => (
                <button key={ex.id} type="button" className="link" onClick={() => (useUi.getState().setMode('exchanges'), useUi.getState().select(ex.id, true))}>
                  {ex.method ?? ex.id} ↗
                </button>
              ))}
              {(record.frameCount ?? 0) > (record.frameSeqs?.length ?? 0) && <span className="muted"> ({record.frameCount} frames in all)</span>}
            </dd>
          </>
        )}
      </dl>
      <Headers title="Request headers" headers={record.requestHeaders} />
      <Headers title="Response headers" headers={record.responseHeaders} />
      <Body title="Request body" body={record.requestBody} />
      <Body title="Response body" body={record.responseBody} />
      {record.mcp && !record.requestBody && <p className="muted">Its bodies are JSON-RPC frames: open its exchanges.</p>}
    </aside>
  );
}
