/** One frame of an exchange: what it is, when (relative to the first frame), HTTP layer, body. */
import type { ExchangeSummary, FrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { formatDuration } from '../ui/status.js';
import { FrameBody } from '../ui/FrameBody.js';
import { HttpLayer } from '../ui/HttpLayer.js';
import type { TreeMark } from '../ui/JsonTree.js';
import { ROLE_LABELS, frameRole } from './frame-role.js';
import { InterceptMark } from '../intercept/index.js';

export function FrameCard({ api, frame, ex, t0, marks }: { api: ApiClient; frame: FrameView; ex: ExchangeSummary; t0: number; marks: readonly TreeMark[] }) {
  const role = frameRole(frame, ex);
  const arrow = frame.direction === 'c2s' ? 'client → server' : 'server → client';
  return (
    <section className={`frame-card role-${role}`} data-testid="frame-card" data-role={role} id={`frame-${frame.seq}`}>
      <header>
        <strong>{ROLE_LABELS[role]}</strong>
        <span className="muted">{arrow}</span>
        {frame.http?.injected && <InterceptMark rule={frame.http.injected.text} action={frame.http.injected.action} what={frame.http.injected.what} />}
        <span className="rel-time" title={new Date(frame.ts).toISOString()}>
          {frame.ts === t0 ? 't = 0' : `+${formatDuration(frame.ts - t0)}`}
        </span>
        <span className="spacer" />
        <span className="muted mono">#{frame.seq} · {frame.transport}</span>
      </header>
      {frame.http && <HttpLayer http={frame.http} />}
      <FrameBody raw={frame.raw} seq={frame.seq} marks={marks} fullBytes={frame.bytes} truncated={frame.truncated} api={api} />
    </section>
  );
}
