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
  'business-error-for-protocol-problem':
    'Mistake 1 of the six (mixing protocol and business errors), one way: the request itself was wrong (a method the server does not have), and the server answered as if a tool had run and failed. JSON-RPC errors (-32601 Method not found, -32602 Invalid params) tell the client to fix its request; isError: true tells the model a tool failed.',
  'protocol-error-looks-like-business':
    'Mistake 1 of the six (mixing protocol and business errors), the other way: the tool ran and failed (nothing found, out of stock, a refused payment), and the server answered with a JSON-RPC error. Hosts show a JSON-RPC error as a broken call and the model cannot read it; a result with isError: true and the reason in content lets it tell the user or try again.',
  'internal-error-for-bad-request':
    'Mistake 1 of the six, in its most common form: the call was malformed (wrong field names, arguments outside params.arguments), the tool never ran, and the server answered -32603 Internal error. -32602 Invalid params says the client is at fault, which is what the client needs to know.',
  'is-error-without-reason':
    'isError: true with an empty content: the host marks the call failed, but the model reads content and learns nothing, so it cannot explain the failure or work around it.',
  'request-without-id':
    'Mistake 2 of the six (missing or reused ids): a message with a method and no id is a notification by JSON-RPC, whatever its method. The receiver must not answer it, so a client that sends tools/call without an id waits forever.',
  'id-reused-in-flight':
    'Mistake 2 of the six (missing or reused ids): two requests of one sender in flight with the same id. Answers are paired by id, so one of the two callers gets the other\'s answer or none.',
  'tool-result-shape-changed':
    'Mistake 3 of the six (unstable result shapes): the same tool returned results with different fields, content block types or structuredContent keys. Compared per session, and per conversation when mcpscope knows which sessions are one chat (ChatGPT opens a session for almost every call).',
  'tool-arguments-flattened':
    'Mistake 4 of the six (wrong or extra params fields): a tools/call carries the tool\'s input in params.arguments; fields beside name are not arguments, and servers do not read them there.',
  'method-name':
    'Mistake 4 of the six: a method name within a typo or a synonym of a real MCP method. Servers answer -32601 Method not found.',
  'notification-name':
    'A notification name within a typo, a synonym or one path segment of a real MCP notification. Receivers ignore a notification they do not know, silently.',
  'reply-as-notification':
    'Mistake 5 of the six (notifications used as a second reply channel): a notification whose params hold the id of a request still waiting for its answer. Clients route answers by id; a notification they do not know is dropped, and ChatGPT ignores server notifications altogether. Put the content in the response.',
  'tool-result-empty-content':
    'content: [] on a successful tool result. Many hosts give the model only content; with no text block the model has nothing to read. With structuredContent, the spec asks for its JSON in a text block too, for hosts that read only content.',
  'tool-arguments-invalid':
    'Mistake 4 of the six (wrong or extra params fields), inside arguments: the arguments do not match the inputSchema the server listed for the tool (a missing required field, a string where a number belongs, a field the schema does not allow). Since 2025-11-25 the spec asks servers to answer input validation as a tool error (isError: true), so the model can correct itself.',
  'is-error-looks-like-protocol-error':
    'A tool error whose text names a protocol problem (an unknown tool, invalid arguments). SDK servers answer those as tool errors on purpose since 2025-11-25, so the model can retry; the finding points at the request, which is where the fix is.',
  'phantom-tool':
    'The call names a tool that the latest tools/list did not include: the session\'s own list, or, for a session that did not list, the latest list of another session of the same conversation.',
};

export function diagnosticHelp(code: string): string | undefined {
  return Object.hasOwn(HELP, code) ? HELP[code] : undefined;
}
