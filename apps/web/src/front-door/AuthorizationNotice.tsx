/**
 * On an exchange the server answered with an OAuth challenge (401 + WWW-Authenticate): says that
 * the server asks the client to authorize, which is the start of a connection, not a broken
 * message, and links to the client's connection story in the Connections view.
 */
import type { ExchangeSummary, FrameView } from '@mcpscope/protocol';
import { openStoryOf } from './open-story.js';

export function AuthorizationNotice({ ex, frames }: { ex: ExchangeSummary; frames: readonly FrameView[] }) {
  if (ex.transportEvent !== 'authorization-required') return null;
  const answer = frames.find((f) => f.seq === ex.responseSeq) ?? frames.find((f) => f.direction === 's2c');
  const requestId = answer?.http?.requestId ?? frames.find((f) => f.http?.requestId !== undefined)?.http?.requestId;
  return (
    <div className="auth-notice" data-testid="authorization-notice">
      🔒 The server asks the client to authorize (HTTP {answer?.http?.status ?? 401}): an OAuth client now reads the server’s metadata,
      registers and signs in, then sends this request again with a token.{' '}
      {requestId !== undefined && (
        <button type="button" className="link" data-testid="open-connection-story" onClick={() => openStoryOf(requestId)}>
          See the connection story →
        </button>
      )}
    </div>
  );
}
