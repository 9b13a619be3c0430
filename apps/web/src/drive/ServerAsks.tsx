/**
 * The server's questions to a session mcpscope drives (sampling, elicitation, roots), waiting for
 * the user: a reply typed or pasted for sampling (no model runs here), the elicitation's own form
 * built from its requestedSchema (accept, decline, cancel; a URL request shows its link, opened
 * only by the user), a roots list. Each is declined for the user when its deadline passes.
 */
import { useState } from 'react';
import { isJsonObject, type JsonObject, type ReplayInput, type ReplayInputAnswer } from '@mcpscope/protocol';
import { ArgumentsEditor } from './ArgumentsEditor.js';
import type { DriveApi } from './drive-api.js';
import { usePendingInputs } from '../replay/use-pending-inputs.js';
import { useSchemaForm } from './use-schema-form.js';

type Settle = (answer: ReplayInputAnswer) => void;

function textOf(content: unknown): string {
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  return isJsonObject(content) ? (content.type === 'text' ? String(content.text ?? '') : `[${String(content.type)}]`) : '';
}

function SamplingAnswer({ params, settle }: { params: JsonObject; settle: Settle }) {
  const [text, setText] = useState('');
  const [model, setModel] = useState('typed-in-mcpscope');
  const messages = Array.isArray(params.messages) ? params.messages.filter(isJsonObject) : [];
  return (
    <>
      {typeof params.systemPrompt === 'string' && <div className="muted">System: {params.systemPrompt}</div>}
      <ol className="drive-sampling-messages">
        {messages.map((m, i) => <li key={i}><strong>{String(m.role)}:</strong> {textOf(m.content)}</li>)}
      </ol>
      {typeof params.maxTokens === 'number' && <div className="muted">at most {params.maxTokens} tokens</div>}
      <textarea aria-label="Your reply" data-testid="drive-sampling-reply" placeholder="Type or paste the model's reply" value={text} onChange={(e) => setText(e.target.value)} />
      <label>Model <input value={model} onChange={(e) => setModel(e.target.value)} aria-label="Model name" /></label>
      <div className="replay-actions">
        <button type="button" className="primary" data-testid="drive-sampling-send" onClick={() => settle({ action: 'answer', result: { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' } })}>Send reply</button>
        <button type="button" onClick={() => settle({ action: 'decline' })}>Decline</button>
      </div>
    </>
  );
}

function ElicitationAnswer({ params, settle }: { params: JsonObject; settle: Settle }) {
  const form = useSchemaForm(params.requestedSchema ?? { type: 'object' });
  const url = params.mode === 'url' && typeof params.url === 'string' ? params.url : undefined;
  const respond = (action: 'accept' | 'decline' | 'cancel') =>
    settle({ action: 'answer', result: action === 'accept' && url === undefined ? { action, content: form.read().value } : { action } });
  return (
    <>
      <div>{String(params.message ?? '')}</div>
      {url !== undefined ? (
        <div data-testid="drive-elicit-url">
          The server asks you to open <a href={url} target="_blank" rel="noreferrer noopener">{url}</a> (not opened by mcpscope), then say whether you completed it.
        </div>
      ) : (
        <ArgumentsEditor state={form} testId="drive-elicit-form" />
      )}
      <div className="replay-actions">
        <button type="button" className="primary" data-testid="drive-elicit-accept" onClick={() => respond('accept')}>Accept</button>
        <button type="button" data-testid="drive-elicit-decline" onClick={() => respond('decline')}>Decline</button>
        <button type="button" data-testid="drive-elicit-cancel" onClick={() => respond('cancel')}>Cancel</button>
      </div>
    </>
  );
}

function RootsAnswer({ settle }: { settle: Settle }) {
  const [roots, setRoots] = useState([{ uri: 'file:///', name: '' }]);
  const edit = (i: number, key: 'uri' | 'name', v: string) => setRoots(roots.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <>
      {roots.map((r, i) => (
        <div key={i} className="drive-root">
          <input aria-label={`Root ${i + 1} URI`} data-testid="drive-root-uri" value={r.uri} onChange={(e) => edit(i, 'uri', e.target.value)} />
          <input aria-label={`Root ${i + 1} name`} placeholder="name" value={r.name} onChange={(e) => edit(i, 'name', e.target.value)} />
          <button type="button" className="small" onClick={() => setRoots(roots.filter((_, j) => j !== i))}>−</button>
        </div>
      ))}
      <div className="replay-actions">
        <button type="button" className="small" onClick={() => setRoots([...roots, { uri: 'file:///', name: '' }])}>+ root</button>
        <button type="button" className="primary" data-testid="drive-roots-send" onClick={() => settle({ action: 'answer', result: { roots: roots.map((r) => (r.name ? r : { uri: r.uri })) } })}>Send roots</button>
        <button type="button" onClick={() => settle({ action: 'decline' })}>Decline</button>
      </div>
    </>
  );
}

function OtherAnswer({ settle }: { settle: Settle }) {
  const [text, setText] = useState('{}');
  return (
    <>
      <textarea aria-label="Your answer (JSON result)" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="replay-actions">
        <button type="button" onClick={() => settle({ action: 'answer', result: JSON.parse(text) })}>Answer</button>
        <button type="button" onClick={() => settle({ action: 'decline' })}>Decline</button>
      </div>
    </>
  );
}

const KIND: Record<string, string> = { 'sampling/createMessage': 'asks for a model reply', 'elicitation/create': 'asks you', 'roots/list': 'asks for your roots' };

export function ServerAsks({ api }: { api: DriveApi }) {
  const { inputs, setInputs, error, setError, now } = usePendingInputs(api, true);

  if (inputs.length === 0) return null;
  const settle = (input: ReplayInput) => async (answer: ReplayInputAnswer) => {
    try {
      await api.answer(input.key, answer);
      setInputs((list) => list.filter((i) => i.key !== input.key));
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section className="drive-asks" aria-label="The server asks" data-testid="drive-asks">
      {inputs.map((input) => {
        const params = isJsonObject(input.params) ? input.params : {};
        return (
          <div key={input.key} className="replay-input" data-testid="drive-ask" data-method={input.method}>
            <div>
              The server {KIND[input.method] ?? 'asks'}: <strong>{input.method}</strong>
              {input.exchangeId && <span className="muted"> (#{input.exchangeId})</span>} — declined for you in {Math.max(0, Math.round((input.expiresAt - now) / 1000))} s.
            </div>
            {input.method === 'sampling/createMessage' ? (
              <SamplingAnswer params={params} settle={settle(input)} />
            ) : input.method === 'elicitation/create' ? (
              <ElicitationAnswer params={params} settle={settle(input)} />
            ) : input.method === 'roots/list' ? (
              <RootsAnswer settle={settle(input)} />
            ) : (
              <OtherAnswer settle={settle(input)} />
            )}
          </div>
        );
      })}
      {error && <div className="replay-error" role="alert">{error}</div>}
    </section>
  );
}
