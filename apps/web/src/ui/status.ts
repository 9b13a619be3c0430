/**
 * How each exchange status reads in the timeline. Every status has its own icon AND its own
 * word, so they stay distinct without colour (colour-blind users, grey-scale screenshots).
 * Protocol errors name their JSON-RPC code ("-32602 Invalid params"); a code with no fixed
 * meaning (-32000 and the rest of the server-error range, application codes) shows the server's
 * own message instead, since only the server knows what it meant by it.
 */
import type { ExchangeStatus, ExchangeSummary } from '@mcpscope/protocol';

export interface StatusLook {
  icon: string;
  label: string;
  /** A colour family for CSS: ok, error, warn, info, muted. */
  tone: 'ok' | 'error' | 'warn' | 'info' | 'muted';
  /** What the status means, for the legend and tooltips. */
  meaning: string;
}

export const STATUS_LOOKS: Readonly<Record<ExchangeStatus, StatusLook>> = {
  pending: { icon: '◷', label: 'pending', tone: 'info', meaning: 'Sent, no answer yet. The timer runs until one arrives.' },
  ok: { icon: '✓', label: 'ok', tone: 'ok', meaning: 'Answered with a result (or a notification that needs no answer).' },
  protocol_error: { icon: '✕', label: 'protocol error', tone: 'error', meaning: 'Answered with a JSON-RPC error object: the request itself was refused.' },
  business_error: { icon: '⚠', label: 'tool error', tone: 'warn', meaning: 'A result with isError: true: the tool ran and reported a failure to the model.' },
  transport_error: { icon: '⚡', label: 'transport error', tone: 'error', meaning: 'No JSON-RPC answer: HTTP failure, reset connection or unreachable upstream.' },
  cancelled: { icon: '⊘', label: 'cancelled', tone: 'muted', meaning: 'The requester sent notifications/cancelled or went away.' },
  orphan: { icon: '?', label: 'orphan', tone: 'warn', meaning: 'A response whose request was never seen.' },
  invalid: { icon: '≠', label: 'invalid', tone: 'error', meaning: 'Bytes that are not a valid JSON-RPC message.' },
};

/**
 * The names JSON-RPC 2.0 and MCP give to error codes. -32000 has none: servers use it for any
 * failure ("Bad Request: No valid session ID provided"), and the SDK's "Connection closed" is a
 * client's own local error, never what a server meant.
 */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32001]: 'Session not found or timeout',
  [-32002]: 'Resource not found',
  [-32020]: 'Header mismatch',
  [-32021]: 'Missing client capability',
  [-32022]: 'Unsupported protocol version',
  [-32042]: 'URL elicitation required',
};

export function errorCodeName(code: number): string {
  const known = ERROR_NAMES[code];
  if (known) return known;
  if (code >= -32099 && code <= -32000) return 'Server error';
  if (code >= -32768 && code <= -32100) return 'Reserved code';
  return 'Application error';
}

/** A transport error that is the server asking the client to authorize (an OAuth 401), not a failure of the path. */
export const AUTHORIZATION_LOOK: StatusLook = { icon: '🔒', label: 'authorization required', tone: 'warn', meaning: 'The server answered with an OAuth challenge (401 + WWW-Authenticate): the client must authorize, then send the request again. The connection story (Connections) shows what followed.' };

/** A result the host throws away (structuredContent breaking the tool's outputSchema, …): a failure, though JSON-RPC says ok. */
export const REJECTED_LOOK: StatusLook = { icon: '⊗', label: 'rejected answer', tone: 'error', meaning: 'A result that breaks a rule hosts enforce (for example structuredContent that does not match the tool\'s outputSchema, which the SDK client refuses): the server thinks it answered, the host throws the answer away. The verdict names the rule.' };

/** The look of one exchange's badge: its status's, authorization required, or rejected answer. */
export function lookOf(ex: Pick<ExchangeSummary, 'status' | 'transportEvent' | 'brokeHostRules'>): StatusLook {
  if (ex.transportEvent === 'authorization-required') return AUTHORIZATION_LOOK;
  if (ex.status === 'ok' && ex.brokeHostRules !== undefined) return REJECTED_LOOK;
  return STATUS_LOOKS[ex.status];
}

/** How long a server's own message may be on a badge (the badge's title has all of it). */
const BADGE_MESSAGE_CHARS = 60;

/** The badge text for one exchange: the status word, refined by what is known about it. */
export function statusText(ex: Pick<ExchangeSummary, 'status' | 'errorCode' | 'errorMessage'> & Partial<Pick<ExchangeSummary, 'transportEvent' | 'brokeHostRules'>>): string {
  if (ex.transportEvent === 'authorization-required') return AUTHORIZATION_LOOK.label;
  if (ex.status === 'ok' && ex.brokeHostRules !== undefined) return REJECTED_LOOK.label;
  if (ex.status === 'protocol_error' && ex.errorCode !== undefined) {
    const message = ex.errorMessage?.trim();
    if (ERROR_NAMES[ex.errorCode] === undefined && message) return `${ex.errorCode} ${clipped(message)}`;
    return `${ex.errorCode} ${errorCodeName(ex.errorCode)}`;
  }
  return STATUS_LOOKS[ex.status].label;
}

function clipped(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > BADGE_MESSAGE_CHARS ? `${line.slice(0, BADGE_MESSAGE_CHARS - 1)}…` : line;
}

/** Milliseconds as the timeline shows them: 0.4 ms, 12 ms, 1.3 s, 2 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Bytes as 512 B, 1.2 kB, 3.4 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
