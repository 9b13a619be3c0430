/**
 * The row above the editor: target, method templates, the tool picker (a valid call from the
 * session's tools/list), Send / Stop waiting, and Copy as curl.
 */
import { CLIENT_METHODS, templateFor } from './message-schema.js';
import { ComposerSessionChooser, ReplayModeSwitch } from './ReplayTarget.js';
import { toolCallSkeleton } from './skeleton.js';
import type { ReplayState } from './use-replay.js';

export function ReplayToolbar({ replay, composing }: { replay: ReplayState; composing: boolean }) {
  const { tools, busy, setText } = replay;
  const pickTool = (name: string) => {
    const tool = tools.find((t) => t.name === name);
    if (tool) setText(toolCallSkeleton(tool));
  };
  return (
    <div className="replay-toolbar">
      {composing && <ComposerSessionChooser replay={replay} />}
      <label>
        Template{' '}
        <select data-testid="replay-template" value="" onChange={(e) => e.target.value && setText(templateFor(e.target.value))}>
          <option value="">method…</option>
          {Object.keys(CLIENT_METHODS).map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
      </label>
      {tools.length > 0 && (
        <label>
          Tool{' '}
          <select data-testid="replay-tool-picker" value="" onChange={(e) => pickTool(e.target.value)}>
            <option value="">fill a valid call…</option>
            {tools.map((t) => <option key={t.name} value={t.name} title={t.description}>{t.name}</option>)}
          </select>
        </label>
      )}
      <ReplayModeSwitch replay={replay} />
      <button type="button" className="primary" data-testid="replay-send" disabled={busy || (!composing && !replay.original)} onClick={() => void replay.send()} title="Ctrl/Cmd+Enter">
        {busy ? 'Sending…' : 'Send'}
      </button>
      {busy && <button type="button" className="small" onClick={replay.stopWaiting}>Stop waiting</button>}
      <span className="replay-spacer" />
      <label title="Put the real credentials in the command instead of $MCP_… placeholders">
        <input type="checkbox" checked={replay.withSecrets} onChange={(e) => replay.setWithSecrets(e.target.checked)} /> with secrets
      </label>
      <button type="button" className="small" data-testid="replay-copy-curl" onClick={() => void replay.copyCurl()}>Copy as curl</button>
    </div>
  );
}
