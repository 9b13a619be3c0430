/** The HTTP exchange a frame rode on: method, path, status, session id, revision and headers. */
import type { HttpInfo } from '@mcpscope/protocol';
import { useDoor } from '../store/door-store.js';
import { useUi } from '../store/ui-store.js';

/** Shows a door record in the Connections view (every request, that one open). */
export function openDoorRecord(id: number): void {
  useUi.getState().setMode('connections');
  useDoor.getState().chooseClient('');
  useDoor.getState().openRecord(id);
}

/** A header table (also the door's request detail); redacted values are marked. */
export function Headers({ title, headers }: { title: string; headers: Record<string, string> | undefined }) {
  if (!headers || Object.keys(headers).length === 0) return null;
  return (
    <>
      <h5>{title}</h5>
      <table className="headers">
        <tbody>
          {Object.entries(headers).map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td className={value.includes('redacted') ? 'redacted' : ''}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function HttpLayer({ http }: { http: HttpInfo }) {
  const sessionId = http.responseHeaders?.['mcp-session-id'] ?? http.requestHeaders?.['mcp-session-id'];
  const version = http.requestHeaders?.['mcp-protocol-version'];
  return (
    <details className="http" data-testid="http-layer">
      <summary>
        HTTP {http.method} {http.path}
        {http.status !== undefined && <span className={`http-status${http.status >= 400 ? ' bad' : ''}`}> → {http.status}</span>}
        {http.sseEvent !== undefined && <span className="muted"> · SSE event {http.sseEvent}</span>}
        {http.sseId !== undefined && <span className="muted"> · id {http.sseId}</span>}
      </summary>
      <dl className="facts">
        {sessionId && (
          <>
            <dt>Session id</dt>
            <dd className="mono">{sessionId}</dd>
          </>
        )}
        {version && (
          <>
            <dt>Protocol version</dt>
            <dd className="mono">{version}</dd>
          </>
        )}
        {http.connectionId && (
          <>
            <dt>Connection</dt>
            <dd className="mono">{http.connectionId}</dd>
          </>
        )}
        {http.requestId !== undefined && (
          <>
            <dt>At the door</dt>
            <dd>
              <button type="button" className="link" data-testid="door-link" onClick={() => openDoorRecord(http.requestId!)}>
                HTTP request #{http.requestId} ↗
              </button>
            </dd>
          </>
        )}
      </dl>
      <Headers title="Request headers" headers={http.requestHeaders} />
      <Headers title="Response headers" headers={http.responseHeaders} />
    </details>
  );
}
