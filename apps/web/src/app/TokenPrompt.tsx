/**
 * Shown when the proxy answers but refuses this tab's token: mcpscope restarted with a new one
 * (`--token`, or a capture file whose token file was removed). The new URL or token can be
 * pasted here; it is checked against the API before the tab reloads with it, so a wrong paste
 * says so instead of looping.
 */
import { useState, type FormEvent } from 'react';
import { ApiClient, ApiError } from '../api/client.js';
import { keepToken, readPastedToken } from '../api/token.js';

export function TokenPrompt() {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const pasted = readPastedToken(text, location.href);
    if (!pasted) return setProblem('That is neither the dashboard URL mcpscope printed (with ?token=) nor a token.');
    // Another dashboard (a new port): go there, the URL carries its token and the view.
    if (pasted.origin) return location.assign(`${pasted.origin}/?token=${encodeURIComponent(pasted.token)}${location.search.replace(/^\?/, '&')}`);
    // The HTTP status of a refusal; undefined when mcpscope did not answer at all.
    const refused = await new ApiClient(pasted.token).info().then(
      () => false as const,
      (err: unknown) => (err instanceof ApiError ? err.status : undefined),
    );
    if (refused !== false) return setProblem(refused === 401 ? 'mcpscope refused that token too: copy the URL from the banner of the mcpscope now running.' : 'mcpscope did not answer; is it running?');
    keepToken(pasted.token);
    location.reload();
  };

  return (
    <div className="banner token-prompt" role="alert" data-testid="token-rejected">
      <p>
        <strong>mcpscope restarted with a new token: open the new URL from its banner.</strong> This tab's token is no longer
        accepted, so nothing new can show here. Or paste the new URL (or just its token):
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <input data-testid="token-input" aria-label="New dashboard URL or token" placeholder="http://127.0.0.1:7789/?token=…" value={text} spellCheck={false} autoComplete="off" onChange={(e) => (setText(e.target.value), setProblem(undefined))} />
        <button type="submit" data-testid="token-submit">Use it</button>
      </form>
      {problem && <p className="token-problem" data-testid="token-problem">{problem}</p>}
    </div>
  );
}
