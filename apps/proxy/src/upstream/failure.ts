/**
 * Failures of the path to the upstream, turned into answers: a well-formed HTTP reply for the
 * client and a `transport` frame for the capture. Errors are named from their structured
 * `code`, never by matching message text.
 */
import type { ServerResponse } from 'node:http';
import { classifyText } from '@mcpscope/protocol';

/** 502 with a JSON-RPC error that carries the request's id when the request was parseable. */
export function answerUpstreamFailure(res: ServerResponse, requestText: string | undefined, reason: string, extraHeaders?: Record<string, string>): void {
  const message = requestText !== undefined ? classifyText(requestText) : undefined;
  const id = message && message.kind === 'request' ? message.id : null;
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: `mcpscope: upstream unreachable: ${reason}` } });
  if (res.headersSent || res.destroyed) return;
  res.writeHead(502, { ...extraHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Names a failure from its structured code (and cause), e.g. `ECONNREFUSED (connect ECONNREFUSED …)`. */
export function describeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : typeof e?.cause?.message === 'string' ? e.cause.message : String(err);
  return code ? `${code} (${message})` : message;
}
