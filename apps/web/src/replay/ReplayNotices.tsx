/**
 * What the last send said besides its answer: the curl command, a failure (with the fresh-session
 * retry the server suggests), the server's warnings and a session fallback.
 */
import type { ReplayState } from './use-replay.js';

export function ReplayNotices({ replay }: { replay: ReplayState }) {
  const { curl, failure, latest } = replay;
  return (
    <>
      {curl && <pre className="replay-curl" data-testid="replay-curl">{curl}</pre>}
      {failure && (
        <div className="replay-error" role="alert" data-testid="replay-error" data-code={failure.error.code}>
          {failure.error.message}
          {failure.retryWith === 'fresh' && (
            <button type="button" className="small" data-testid="replay-retry-fresh" onClick={() => void replay.send('fresh')}>Replay in a fresh session</button>
          )}
        </div>
      )}
      {latest?.response?.warnings?.map((w) => (
        <div key={w} className="replay-warning" role="status">{w}</div>
      ))}
      {latest?.response?.sessionFallback && (
        <div className="replay-warning" role="status" data-testid="replay-session-fallback" data-session={latest.response.sessionFallback.to}>
          {latest.response.sessionFallback.reason}
        </div>
      )}
    </>
  );
}
