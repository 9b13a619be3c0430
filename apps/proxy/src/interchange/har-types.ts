/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as TypeScript, plus the
 * `_`-prefixed extras mcpscope adds. The spec allows custom fields whose names start with `_`;
 * viewers ignore them, and mcpscope's reader uses them to import its own HARs exactly.
 */
import type { Direction, FrameKind, Transport } from '@mcpscope/protocol';

export interface HarNameValue {
  name: string;
  value: string;
  comment?: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: HarNameValue[];
  comment?: string;
}

export interface HarContent {
  size: number;
  compression?: number;
  mimeType: string;
  text?: string;
  encoding?: string;
  comment?: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
  comment?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  comment?: string;
}

export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  send: number;
  wait: number;
  receive: number;
  ssl?: number;
  comment?: string;
}

/** One frame's place in an entry, so mcpscope can rebuild the exact frame list on import. */
export interface McpscopeHarFrame {
  seq: number;
  ts: number;
  direction: Direction;
  transport: Transport;
  kind: FrameKind;
  sseId?: string;
  sseEvent?: string;
  /** Only for frames whose text is not in a body (transport and log frames). */
  raw?: string;
}

export interface McpscopeHarEntryExtra {
  sessionKey: string;
  connectionId?: string;
  frames: McpscopeHarFrame[];
}

/** An SSE event of the response, in the manner of Chrome's `_webSocketMessages`. */
export interface HarSseEvent {
  type: 'receive';
  /** Seconds since the epoch, like Chrome's WebSocket message times. */
  time: number;
  event?: string;
  id?: string;
  data: string;
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, unknown>;
  timings: HarTimings;
  serverIPAddress?: string;
  connection?: string;
  comment?: string;
  _mcpscope?: McpscopeHarEntryExtra;
  _sseEvents?: HarSseEvent[];
  [extra: `_${string}`]: unknown;
}

export interface HarLog {
  version: string;
  creator: { name: string; version: string; comment?: string };
  browser?: { name: string; version: string };
  pages?: unknown[];
  entries: HarEntry[];
  comment?: string;
  /** Export metadata, and frames that rode no HTTP request (stdio) and so have no entry. */
  _mcpscope?: { format: 'mcpscope-har'; version: number; redaction: { enabled: boolean; rules: string[] }; filter?: string; session?: string; frames: (McpscopeHarFrame & { sessionKey: string; raw: string })[] };
}

export interface Har {
  log: HarLog;
}
