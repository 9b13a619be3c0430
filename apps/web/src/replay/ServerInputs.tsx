/**
 * Requests the server sent back during a replay (elicitation, sampling, roots). mcpscope is the
 * client on that wire, so the user answers here, or declines; unanswered ones are declined when
 * their time runs out, which the countdown shows.
 */
import { useState } from 'react';
import type { ReplayInput } from '@mcpscope/protocol';
import type { ReplayApi } from './replay-api.js';
import { usePendingInputs } from './use-pending-inputs.js';

/** A plausible answer to start from, so "Answer" is one edit away from valid. */
function suggestedAnswer(method: string): string {
  const result =
    method === 'elicitation/create'
      ? { action: 'accept', content: {} }
      : method === 'sampling/createMessage'
        ? { role: 'assistant', content: { type: 'text', text: '' }, model: 'mcpscope-user' }
        : method === 'roots/list'
          ? { roots: [] }
          : {};
  return JSON.stringify(result, null, 2);
}

export function ServerInputs({ api, active }: { api: ReplayApi; active: boolean }) {
  const { inputs, setInputs, error, setError, now } = usePendingInputs(api, active);
  const [drafts, setDrafts] = useState<Record<string, string>>({});

  if (inputs.length === 0) return null;
  const settle = async (input: ReplayInput, decline: boolean) => {
    try {
      if (decline) await api.answer(input.key, { action: 'decline' });
      else await api.answer(input.key, { action: 'answer', result: JSON.parse(drafts[input.key] ?? suggestedAnswer(input.method)) });
      setInputs((list) => list.filter((i) => i.key !== input.key));
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section className="replay-inputs" aria-label="Server requests waiting for you">
      {inputs.map((input) => (
        <div key={input.key} className="replay-input" data-testid="replay-input" data-method={input.method}>
          <div>
            The server asks <strong>{input.method}</strong> during the replay. Declined automatically in {Math.max(0, Math.round((input.expiresAt - now) / 1000))} s.
          </div>
          <pre className="replay-input-params">{JSON.stringify(input.params ?? {}, null, 2)}</pre>
          <textarea
            aria-label="Your answer (JSON result)"
            spellCheck={false}
            value={drafts[input.key] ?? suggestedAnswer(input.method)}
            onChange={(e) => setDrafts((d) => ({ ...d, [input.key]: e.target.value }))}
          />
          <div className="replay-actions">
            <button type="button" onClick={() => void settle(input, false)}>Answer</button>
            <button type="button" data-testid="replay-input-decline" onClick={() => void settle(input, true)}>Decline</button>
          </div>
        </div>
      ))}
      {error && <div className="replay-error" role="alert">{error}</div>}
    </section>
  );
}
