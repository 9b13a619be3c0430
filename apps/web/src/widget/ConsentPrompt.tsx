/**
 * The dashboard's own question before a widget's first call of a tool on the live server, as a
 * host asks before an app acts: "This widget wants to call <tool> on <server>: Allow / Deny".
 * It is dashboard DOM, fixed above everything (a fullscreen widget included), so the widget can
 * neither answer it nor hide it; only Allow here sends the consent to the proxy.
 */
import type { ConsentAsk } from './consent-asks.js';

export function ConsentPrompt({ ask, server }: { ask: ConsentAsk; server: string }) {
  return (
    <div className="widget-consent" role="alertdialog" aria-label="Widget tool call" data-testid="widget-consent" data-tool={ask.tool}>
      <p>
        This widget wants to call <strong>{ask.tool}</strong> on <code>{server}</code>
        <span className="muted"> (a real call to the live server, with this call's session credentials)</span>
      </p>
      <div className="widget-consent-actions">
        <button type="button" onClick={() => ask.answer(true)} data-testid="widget-consent-allow">
          Allow
        </button>
        <button type="button" onClick={() => ask.answer(false)} data-testid="widget-consent-deny">
          Deny
        </button>
      </div>
    </div>
  );
}
