/**
 * Says, where the user looks, that the tap refused a Host: most often ChatGPT through a tunnel
 * while mcpscope runs without `--public-url`. Per Host: the client, how many requests, where they
 * came from (addresses, and the page's Origin when a browser sent them), the flag to restart with
 * (copyable), and a button that accepts the Host for this run. The button names the Host and the
 * addresses, and is only ever pressed by the user: a DNS-rebinding page's Host looks just as
 * foreign as a tunnel's, so what tells them apart is said before the click.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { CopyButton } from '../ui/CopyButton.js';
import { useDoor } from '../store/door-store.js';
import { acceptHost, loadAcceptedHosts, useAcceptedHosts } from './accepted-hosts.js';
import { refusedHosts, type RefusedHostView } from './refused-hosts.js';
import './front-door.css';

export function RefusedHostBanner({ api }: { api: ApiClient }) {
  const records = useDoor((s) => s.records);
  const tick = useDoor((s) => s.tick);
  const accepted = useAcceptedHosts((s) => s.accepted);
  // Absent where there is no tap (a capture file opened read-only): nothing to accept then.
  const [canAccept, setCanAccept] = useState(false);
  useEffect(() => {
    loadAcceptedHosts(api).then(() => setCanAccept(true), () => setCanAccept(false));
  }, [api]);
  const hosts = useMemo(() => refusedHosts(records.values(), accepted), [records, tick, accepted]);
  if (hosts.length === 0) return null;
  return (
    <div className="refused-hosts" data-testid="refused-hosts">
      {hosts.slice(0, 3).map((h) => (
        <RefusedHost key={h.host} view={h} api={api} canAccept={canAccept} />
      ))}
      {hosts.length > 3 && <div className="muted">…and {hosts.length - 3} more refused Hosts (Connections lists them all).</div>}
    </div>
  );
}

function RefusedHost({ view, api, canAccept }: { view: RefusedHostView; api: ApiClient; canAccept: boolean }) {
  const [state, setState] = useState<'idle' | 'accepting' | string>('idle');
  const from = view.addresses.join(', ') || 'an unknown address';
  const accept = async () => {
    setState('accepting');
    try {
      await acceptHost(api, view.host);
    } catch (err) {
      setState((err as Error).message);
    }
  };
  return (
    <div className="banner refused-host" role="alert" data-testid="refused-host" data-host={view.host}>
      <div>
        {view.client ?? 'A client without a User-Agent'}’s request{view.count === 1 ? ' was' : `s (${view.count}) were`} refused: Host{' '}
        <code>{view.host}</code> is not this tap. Requests came from <code>{from}</code>
        {view.origins.length > 0 ? (
          <>
            {' '}
            sent by a web page at <code>{view.origins.join(', ')}</code> (a tunnel client sends no Origin: accept only a page you opened yourself)
          </>
        ) : null}
        .
      </div>
      <div className="refused-host-actions">
        <span>Restart with</span>
        <code data-testid="refused-host-fix">{view.fix}</code>
        <CopyButton text={view.fix} label="Copy" />
        {canAccept && (
          <button type="button" className="small primary" data-testid="accept-host" disabled={state === 'accepting'} title={`Lets requests for Host ${view.host} through the tap until mcpscope stops`} onClick={accept}>
            Accept {view.host} for this run (from {from})
          </button>
        )}
        {state !== 'idle' && state !== 'accepting' && <span className="error-text">{state}</span>}
      </div>
    </div>
  );
}
