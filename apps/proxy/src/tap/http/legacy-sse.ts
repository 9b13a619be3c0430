/**
 * Legacy HTTP+SSE (2024-11-05). The server's first SSE event, `endpoint`, tells the client where
 * to POST. The tap rewrites it so the client posts back through the tap, and remembers the path
 * so those POSTs are recorded as MCP traffic of the same session as the stream: their responses
 * arrive on the stream and must pair with them.
 */
import { redactUrlSecrets } from '../../redaction/redact-secrets.js';
import { rewriteUrl } from './public-origin.js';

/** Message endpoints announced by upstream `endpoint` events (pathnames on the upstream). */
export class LegacyEndpoints {
  private readonly paths = new Set<string>();

  add(pathname: string): void {
    this.paths.add(pathname);
  }

  has(pathname: string): boolean {
    return this.paths.has(pathname);
  }
}

/**
 * The session a legacy POST or stream belongs to: the server's session id (`sessionId` from the
 * TypeScript SDK, `session_id` from the Python SDK and FastMCP), else the whole query, its
 * credentials redacted (the key is stored with every frame and shown: a server that puts a token
 * in its endpoint URL must not have it stored), else the path. Two streams told apart only by
 * same-length credentials in such a query would share a key; no SDK makes endpoints like that.
 */
export function legacySessionKey(search: string, pathname: string): string {
  const query = new URLSearchParams(search);
  const id = query.get('sessionId') ?? query.get('session_id');
  return id ?? (redactUrlSecrets(search) || pathname);
}

/**
 * Where the client must post. Absolute URLs on the upstream origin become the client-facing base;
 * an absolute path gets the public path prefix (it resolves against the origin root, so the
 * prefix would be lost); relative paths resolve the same way on the tap. The query string,
 * `sessionId` included, is kept byte for byte.
 */
export function rewriteEndpoint(data: string, upstreamOrigin: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(data)) return rewriteUrl(data, upstreamOrigin, base);
  if (data.startsWith('//')) return data;
  if (data.startsWith('/')) return new URL(base).pathname.replace(/\/+$/, '') + data;
  return data;
}

const BLANK_LINE = /\r\n\r\n|\n\n|\r\r/;
/** Give up looking for `endpoint` after this much: the stream is not legacy HTTP+SSE. */
const LOOK_LIMIT = 64 * 1024;

/**
 * Finds the `endpoint` event at the head of an SSE stream and rewrites its data line; every other
 * byte passes unchanged. Holds bytes only until the first event is complete.
 */
export class EndpointRewriter {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private done = false;

  constructor(private readonly rewrite: (data: string) => string, private readonly onEndpoint: (original: string) => void) {}

  /**
   * Returns the bytes to send now. Only an incomplete block is held back: comments (keep-alives)
   * and priming blocks before the first event go out as soon as they are complete.
   */
  push(chunk: Buffer): Buffer | undefined {
    if (this.done) return chunk;
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    const all = this.held.length === 1 ? chunk : Buffer.concat(this.held, this.heldBytes);
    // latin1 maps bytes 1:1, so offsets in the string are offsets in the buffer.
    const text = all.toString('latin1');
    const out: Buffer[] = [];
    let at = 0;
    while (!this.done) {
      const m = BLANK_LINE.exec(text.slice(at));
      if (!m) break;
      const end = at + m.index + m[0].length;
      const block = all.subarray(at, end);
      const rewritten = this.rewriteBlock(block.toString('utf8'));
      out.push(rewritten === undefined ? block : Buffer.from(rewritten, 'utf8'));
      at = end;
    }
    const rest = all.subarray(at);
    if (this.done || rest.length > LOOK_LIMIT) {
      out.push(rest);
      this.finish();
    } else {
      this.held = rest.length > 0 ? [rest] : [];
      this.heldBytes = rest.length;
    }
    return out.length === 0 ? undefined : out.length === 1 ? out[0] : Buffer.concat(out);
  }

  /** The stream ended while holding bytes: release them. */
  flush(): Buffer | undefined {
    if (this.done || this.heldBytes === 0) return undefined;
    const all = Buffer.concat(this.held, this.heldBytes);
    this.finish();
    return all;
  }

  private finish(): void {
    this.done = true;
    this.held = [];
    this.heldBytes = 0;
  }

  /** The rewritten block for an `endpoint` event; marks done on that or on any other real event. */
  private rewriteBlock(block: string): string | undefined {
    const lines = block.split(/\r\n|\r|\n/);
    let isEndpoint = false;
    let dataLine: string | undefined;
    let hasData = false;
    for (const line of lines) {
      if (/^event: ?endpoint$/.test(line)) isEndpoint = true;
      if (line.startsWith('data:')) {
        hasData = true;
        dataLine ??= line;
      }
    }
    if (isEndpoint && dataLine !== undefined) {
      this.done = true;
      const prefix = dataLine.startsWith('data: ') ? 'data: ' : 'data:';
      const original = dataLine.slice(prefix.length);
      this.onEndpoint(original);
      return block.replace(dataLine, prefix + this.rewrite(original));
    }
    // Comments and priming blocks come before the first event; a real event ends the search.
    if (hasData || lines.some((l) => l.startsWith('event:'))) this.done = true;
    return undefined;
  }
}
