/**
 * The preview's event log, newest last. Entries render as text; a call links to its exchange;
 * a URL the widget asked to open is a link the user may follow (never opened by the preview).
 */
import { memo, useState, useSyncExternalStore } from 'react';
import { useUi } from '../store/ui-store.js';
import type { EventLog, LogEntry } from './event-log.js';

export function EventLogView({ log }: { log: EventLog }) {
  const { entries, dropped } = useSyncExternalStore(
    (l) => log.subscribe(l),
    () => log.snapshot(),
  );
  return (
    <section className="widget-log" data-testid="widget-log">
      <h4>
        Event log <span className="muted">({entries.length}{dropped ? `, ${dropped} older dropped` : ''})</span>
      </h4>
      <ol>
        {entries.map((e) => (
          <Entry key={e.seq} e={e} />
        ))}
      </ol>
    </section>
  );
}

/** One entry; entries never change, so a flood re-renders only the new ones. */
const Entry = memo(function Entry({ e }: { e: LogEntry }) {
  return (
    <li className={`log-${e.severity}`} data-kind={e.kind} data-testid="widget-log-entry">
      <span className="log-t">{(e.t / 1000).toFixed(2)}s</span>
      <span className={`log-kind kind-${e.kind}`}>{e.kind}</span>
      <span className="log-text">
        {e.text}
        {e.exchangeId !== undefined && (
          <>
            {' '}
            <button type="button" className="link" data-testid="widget-log-exchange" onClick={() => useUi.getState().select(e.exchangeId, true)}>
              #{e.exchangeId}
            </button>
          </>
        )}
        {e.url !== undefined && /^https?:\/\//i.test(e.url) && (
          <>
            {' '}
            <a href={e.url} target="_blank" rel="noopener noreferrer">
              open
            </a>
          </>
        )}
        {e.detail !== undefined && <Detail value={e.detail} />}
      </span>
    </li>
  );
});

/** The entry's detail, serialized only once opened (a flood of entries costs no JSON). */
function Detail({ value }: { value: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>detail</summary>
      {open && <pre>{JSON.stringify(value, null, 2)?.slice(0, 20_000)}</pre>}
    </details>
  );
}
