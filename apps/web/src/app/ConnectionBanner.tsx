/**
 * Says so while the WebSocket is down (the timeline keeps what it has and catches up on return),
 * or, when the proxy refuses this tab's token, asks for the new one.
 */
import { useLive } from '../store/live-store.js';
import { useNow } from '../lib/now.js';
import { formatDuration } from '../ui/status.js';
import { TokenPrompt } from './TokenPrompt.js';

function DownFor({ since }: { since: number }) {
  const now = useNow();
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

export function ConnectionBanner() {
  const connection = useLive((s) => s.connection);
  const downSince = useLive((s) => s.downSince);
  const error = useLive((s) => s.error);
  if (connection === 'rejected') return <TokenPrompt />;
  if (connection !== 'down') return null;
  return (
    <div className="banner" role="alert" data-testid="connection-banner">
      ⚡ Live connection to mcpscope lost{downSince ? <> <DownFor since={downSince} /> ago</> : null}
      {error ? ` (${error})` : ''}. Reconnecting — rows captured meanwhile will appear without gaps.
    </div>
  );
}
