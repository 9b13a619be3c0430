/**
 * How many replies a POST body asks for: its JSON-RPC requests (a method and an id), counted
 * without parsing a single message (the common case) and by parsing a batch, which is rare. A
 * count too high only makes the tap note that a stream ended short, which pairing then finds
 * answered; undefined means the tap does not know and notes nothing.
 */
export function requestsIn(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const start = text.search(/\S/);
  if (start === -1) return undefined;
  if (text[start] !== '[') return text.includes('"method"') && text.includes('"id"') ? 1 : 0;
  try {
    const items = JSON.parse(text) as unknown;
    if (!Array.isArray(items)) return undefined;
    return items.filter((m) => typeof m === 'object' && m !== null && 'method' in m && 'id' in m).length;
  } catch {
    return undefined;
  }
}

/**
 * Whether an SSE event's data reads as a reply (a result or an error, not a request or a
 * notification). A reply missed here only makes the tap note a stream that ended short.
 */
export function looksLikeReply(data: string): boolean {
  return !data.includes('"method"') && (data.includes('"result"') || data.includes('"error"'));
}
