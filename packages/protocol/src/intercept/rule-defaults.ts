/**
 * Defaults and limits of the rule language, with where each number comes from.
 */

/**
 * A paused frame goes on unchanged after this long unless a rule says otherwise. Well under the
 * 60 s the official TypeScript SDK waits for an answer (`DEFAULT_REQUEST_TIMEOUT_MSEC = 60000`,
 * @modelcontextprotocol/sdk shared/protocol.ts), so a forgotten breakpoint never fails the call.
 */
export const DEFAULT_PAUSE_DEADLINE_MS = 20_000;

/** The longest pause or delay a rule may ask for (ten minutes): a typo must not hang a session for hours. */
export const MAX_RULE_WAIT_MS = 10 * 60_000;

/** The largest size `inflate` pads to (256 MiB): past that the tap itself would run short of memory. */
export const MAX_INFLATE_BYTES = 256 * 1024 * 1024;

/** The actions, in the order help lists them, each with its syntax and one line of help. */
export const RULE_ACTIONS = [
  { action: 'pause', syntax: 'pause [request|response] [for DURATION]', help: 'Hold the request (or its answer) until released, edited or dropped; released unchanged after the deadline (20s by default).' },
  { action: 'delay', syntax: 'delay DURATION', help: 'Forward the request after a wait.' },
  { action: 'error', syntax: 'error CODE ["MESSAGE"]', help: 'Answer with a JSON-RPC error instead of calling the server.' },
  { action: 'is-error', syntax: 'is-error ["TEXT"]', help: 'Answer with a tool result that has isError: true, instead of calling the server.' },
  { action: 'replace', syntax: 'replace JSON', help: "Answer with this result instead of calling the server." },
  { action: 'inflate', syntax: 'inflate SIZE', help: "Pad the server's result to at least SIZE (e.g. 2mb)." },
  { action: 'drop', syntax: 'drop', help: "Swallow the server's answer: the client gets 202 Accepted and never a reply." },
  { action: 'http', syntax: 'http STATUS [NAME=VALUE …]', help: 'Answer with this HTTP status (and headers) instead of calling the server.' },
  { action: 'cut-stream', syntax: 'cut-stream after N', help: 'End an SSE answer after N events.' },
  { action: 'notify', syntax: 'notify METHOD', help: "Send this notification to the client before the server's answer." },
] as const;
