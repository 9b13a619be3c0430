/**
 * Longer help for diagnostics whose message cannot say everything: the rules a heuristic applies,
 * and why a finding about the host is worth knowing. Kept by code (not stored with each finding),
 * so the dashboard shows the current text for old captures too.
 */
import { UNFLAGGED_ERROR_RULES } from '../derive/unflagged-error.js';

const HELP: Readonly<Record<string, string>> = {
  'unflagged-business-error':
    'A tools/call result without isError: true is flagged when any of these holds:\n' +
    UNFLAGGED_ERROR_RULES.map((r) => `• ${r.describe}`).join('\n') +
    '\nOnly these shapes count, never words elsewhere in a text, so ordinary results stay quiet. When the tool really failed, return isError: true (with the failure in content): the host then shows a failure and the model can recover. When it is a normal answer that happens to look like this, ignore the warning.',
  'discover-probe-loop':
    'A client that speaks both eras probes with server/discover and falls back to initialize when the answer is not a 2026-07-28 result or error. The spec asks it to remember the era it found per server. This fires on the third probe in a conversation after two probes that each failed and fell back.',
  'tools-relisted-every-call':
    'Counted per conversation, across its sessions: three tools/call in a row, each preceded by its own tools/list. ChatGPT and Claude open a new session for almost every call and list tools in each; nothing is wrong with the server, but tools/list is on the path of every call.',
  'tool-called-after-list-changed':
    'Per conversation, across its sessions: the server sent notifications/tools/list_changed, and a later tools/call came before any tools/list. Reported once per list_changed.',
  'phantom-tool':
    'The call names a tool that the latest tools/list did not include: the session\'s own list, or, for a session that did not list, the latest list of another session of the same conversation.',
};

export function diagnosticHelp(code: string): string | undefined {
  return Object.hasOwn(HELP, code) ? HELP[code] : undefined;
}
