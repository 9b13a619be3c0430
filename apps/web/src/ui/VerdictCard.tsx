/**
 * The verdict at the top of a failed exchange's detail: whose fault it is, what happened and the
 * fix, each in one sentence, with what the peer said quoted apart (captured text, shown as data)
 * and the evidence one click away (frames, HTTP requests, findings).
 */
import type { ExchangeVerdict } from '@mcpscope/protocol';
import { openDoorRecord } from './HttpLayer.js';

const WHOSE = { client: 'client side', server: 'server side', transport: 'the connection' } as const;

export function VerdictCard({ verdict }: { verdict: ExchangeVerdict }) {
  const { evidence } = verdict;
  return (
    <section className={`verdict fault-${verdict.fault}`} data-testid="verdict" data-kind={verdict.kind} aria-label="Verdict">
      <header>
        <span className="verdict-title">{verdict.title}</span>
        <span className="verdict-fault" data-testid="verdict-fault">
          fix on the {WHOSE[verdict.fault]}
        </span>
      </header>
      <p className="verdict-sentence">{verdict.sentence}</p>
      {verdict.quote !== undefined && (
        <blockquote className="verdict-quote" data-testid="verdict-quote" title="What the peer said, as recorded">
          {verdict.quote}
        </blockquote>
      )}
      <p className="verdict-fix" data-testid="verdict-fix">
        <strong>Fix: </strong>
        {verdict.fix}
      </p>
      <p className="verdict-evidence">
        evidence:{' '}
        {evidence.frameSeqs.map((seq) => (
          <a key={`f${seq}`} href={`#frame-${seq}`}>
            frame #{seq}
          </a>
        ))}
        {evidence.doorRecordIds.map((id) => (
          <button key={`d${id}`} type="button" className="link" onClick={() => openDoorRecord(id)}>
            HTTP request #{id}
          </button>
        ))}
        {evidence.diagnosticCodes.map((code) => (
          <code key={`c${code}`}>{code}</code>
        ))}
        {evidence.latencyMs !== undefined && <span>after {Math.round(evidence.latencyMs)} ms</span>}
      </p>
    </section>
  );
}
