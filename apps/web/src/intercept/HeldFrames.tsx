/**
 * The frames pause rules hold now: each with the rule that paused it, a countdown to the moment it
 * goes on by itself, its JSON in Monaco, and Release (as edited), Release unchanged, Drop. A held
 * request opens in the replay's message editor (checked against the method's params and the
 * tool's inputSchema, Ctrl/Cmd+Enter releases); a held answer in the plain JSON editor.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import type { HeldFrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { ReplayApi } from '../replay/replay-api.js';
import { useSessionTools } from '../replay/use-replay.js';
import { formatCountdown } from './intercept-model.js';
import { prettyFrame } from '../ui/pretty-frame.js';
import { useNow } from './use-now.js';

const JsonEditor = lazy(() => import('../ui/JsonEditor.js'));
const MessageEditor = lazy(() => import('../replay/MessageEditor.js'));

function RequestEditor({ client, sessionKey, text, onChange, onSubmit }: { client: ApiClient; sessionKey: string; text: string; onChange(text: string): void; onSubmit(): void }) {
  const replayApi = useMemo(() => new ReplayApi(client), [client]);
  const tools = useSessionTools(replayApi, sessionKey);
  return <MessageEditor value={text} onChange={onChange} tools={tools} onSubmit={onSubmit} />;
}

export interface HeldControls {
  release(id: number, text?: string): Promise<void>;
  drop(id: number): Promise<void>;
}

function HeldFrame({ client, held, now, controls }: { client: ApiClient; held: HeldFrameView; now: number; controls: HeldControls }) {
  const original = prettyFrame(held.raw);
  const [text, setText] = useState(original);
  const [busy, setBusy] = useState(false);
  const act = (run: () => Promise<void>) => {
    setBusy(true);
    void run().finally(() => setBusy(false));
  };
  const edited = text !== original;
  const release = () => act(() => controls.release(held.id, edited ? text : undefined));
  return (
    <section className="intercept-held" data-testid="intercept-held" data-held-id={held.id} data-direction={held.direction} role="alert">
      <div className="intercept-held-head">
        <strong>Paused {held.direction === 'c2s' ? 'request' : 'answer'}</strong>
        <code className="mono" title="The rule that paused it">{held.ruleText}</code>
        <span className="intercept-countdown" data-testid="intercept-countdown" title="Goes on unchanged by itself then, before the client's own timeout">
          goes on in {formatCountdown(held.deadline - now)}
        </span>
      </div>
      <div className="intercept-editor" data-testid="intercept-held-editor">
        <Suspense fallback={<pre className="mono">{original}</pre>}>
          {held.direction === 'c2s' ? <RequestEditor client={client} sessionKey={held.sessionKey} text={text} onChange={setText} onSubmit={release} /> : <JsonEditor value={text} readOnly={false} onChange={setText} />}
        </Suspense>
      </div>
      <div className="intercept-held-actions">
        <button type="button" className="small" data-testid="intercept-release" disabled={busy} onClick={release}>
          {edited ? 'Release edited' : 'Release'}
        </button>
        <button type="button" className="small" data-testid="intercept-release-unchanged" disabled={busy} onClick={() => act(() => controls.release(held.id))}>
          Release unchanged
        </button>
        <button type="button" className="small danger" data-testid="intercept-drop" disabled={busy} onClick={() => act(() => controls.drop(held.id))}>
          Drop
        </button>
      </div>
    </section>
  );
}

export function HeldFrames({ client, held, controls }: { client: ApiClient; held: readonly HeldFrameView[]; controls: HeldControls }) {
  const now = useNow(held.length > 0);
  if (held.length === 0) return null;
  return (
    <div className="intercept-held-list" data-testid="intercept-held-list">
      {held.map((h) => <HeldFrame key={h.id} client={client} held={h} now={now} controls={controls} />)}
    </div>
  );
}
