/**
 * The capture's session key for Streamable HTTP traffic. Stateful servers name the session
 * (`Mcp-Session-Id`); stateless ones (2026-07-28, or a server without sessions) do not, so the
 * key comes from who the client is: its User-Agent plus the clientInfo it puts in `_meta`.
 */
import { classifyText, isJsonObject, type Message } from '@mcpscope/protocol';

const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';

export function statelessSessionKey(userAgent: string | undefined, requestText: string | undefined): string {
  let key = `client:${userAgent ?? 'unknown client'}`;
  // Parse only bodies that can carry clientInfo: this runs for every stateless request.
  const info = requestText !== undefined && requestText.includes(CLIENT_INFO_META) ? clientInfoOf(classifyText(requestText)) : undefined;
  if (info) key += ` ${info}`;
  return key;
}

function clientInfoOf(message: Message): string | undefined {
  const first = message.kind === 'batch' ? message.items[0] : message;
  if (!first || (first.kind !== 'request' && first.kind !== 'notification')) return undefined;
  const meta = first.params?._meta;
  if (!isJsonObject(meta)) return undefined;
  const info = meta[CLIENT_INFO_META];
  if (!isJsonObject(info) || typeof info.name !== 'string') return undefined;
  return typeof info.version === 'string' ? `${info.name}/${info.version}` : info.name;
}
