/**
 * What a host says about itself on the wire: its name (from the User-Agent and clientInfo), its own
 * conversation id, and the vendor hints it puts in request `_meta`. Hints are recorded as the
 * traffic carries them, never assumed: OpenAI's Apps SDK reference lists `openai/locale` (with the
 * legacy `webplus/i18n`), `openai/userAgent`, `openai/userLocation`, `openai/subject`, and
 * `openai/session` (an anonymized conversation id), `openai/organization` on tool calls. They are
 * hints only, never authorisation.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

/** ChatGPT's anonymized per-conversation id in request `_meta`. */
export const OPENAI_SESSION_META = 'openai/session';

/** `_meta` keys of the protocol itself, not of a host. */
const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';
const HINT_VALUE_CHARS = 80;
/** Hints kept per conversation. */
export const MAX_HINTS = 16;

/** The host's own conversation id in a request's `_meta`, if it sent one. */
export function hostConversationId(params: JsonObject | undefined): string | undefined {
  const meta = params?._meta;
  if (!isJsonObject(meta)) return undefined;
  const id = meta[OPENAI_SESSION_META];
  return typeof id === 'string' && id.length > 0 && id.length <= 512 ? id : undefined;
}

/** Whether a `_meta` key is a vendor hint (a key with a `/`, outside the protocol's own). */
export function isHostHintKey(key: string): boolean {
  return key.includes('/') && !key.startsWith(PROTOCOL_META_PREFIX);
}

/** A hint's value as recorded: text, shortened. */
export function hintValue(value: JsonValue): string {
  return shorten(value);
}

function shorten(value: JsonValue): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > HINT_VALUE_CHARS ? `${text.slice(0, HINT_VALUE_CHARS - 1)}…` : text;
}

/**
 * The host's name, without version: "ChatGPT" for OpenAI's connector (User-Agent `openai-mcp/…`,
 * clientInfo `openai-mcp`), "Claude" for Anthropic's (clientInfo `claude-ai`), else the client's
 * own title or name, else its User-Agent.
 */
export function hostName(userAgent: string | undefined, clientInfo: JsonObject | undefined): string {
  const name = typeof clientInfo?.name === 'string' ? clientInfo.name : undefined;
  if ((userAgent && /^openai-mcp\//i.test(userAgent)) || name === 'openai-mcp') return 'ChatGPT';
  if (name === 'claude-ai' || (userAgent && /^Claude-User\b/i.test(userAgent))) return 'Claude';
  const title = typeof clientInfo?.title === 'string' ? clientInfo.title : undefined;
  return title ?? name ?? userAgent ?? 'unknown client';
}
