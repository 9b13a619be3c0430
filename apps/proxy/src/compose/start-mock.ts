/**
 * `mcpscope mock FILE`, assembled: the capture file read into a cassette, the mock served on
 * its own listener with the tap's Host/Origin guard and CORS, and with `record` a whole mcpscope
 * (tap, capture, dashboard) in front of it, so what clients do with the mock is captured too.
 * Without `record` the mock itself listens on `port`/`host`; with it the tap does, and the mock
 * sits on a loopback port of its own.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cassette, ImportReport, MatchMode } from '@mcpscope/protocol';
import { createMock } from '../mock/mock-server.js';
import { answerPreflight, corsHeaders, createGuard, isPreflight, refuse } from '../tap/http/tap-guard.js';
import { isLoopbackAddress, urlHostOf } from '../core/addresses.js';
import { readCassette } from './capture-file.js';
import { closeServer, listen } from './listen.js';
import { startMcpscope, type Mcpscope } from './start-mcpscope.js';

export interface MockStartOptions {
  file: string;
  port?: number;
  host?: string;
  mode?: MatchMode;
  speed?: number;
  /** Put a tap in front (capture and dashboard); `db`, `uiPort`, `token` are its options. */
  record?: boolean;
  db?: string;
  uiPort?: number;
  token?: string;
  allowHosts?: string[];
  allowOrigins?: string[];
  webRoot?: string;
  replyTimeoutMs?: number;
  log?(line: string): void;
}

export interface RunningMock {
  /** The MCP endpoint clients use (the tap's with `record`). */
  mcpUrl: string;
  /** The mock's own endpoint (the same as `mcpUrl` without `record`). */
  mockUrl: string;
  paths: string[];
  cassette: Cassette;
  report: ImportReport;
  /** The tap and dashboard in front of the mock (`record`). */
  recorder?: Mcpscope;
  close(): Promise<void>;
}

export type MockStartResult = { ok: true; value: RunningMock } | { ok: false; message: string };

export async function startMock(options: MockStartOptions): Promise<MockStartResult> {
  const read = readCassette(options.file);
  if (!read.ok) return read;
  const { cassette, report } = read;
  const answerable = cassette.calls.filter((c) => c.answer !== undefined || c.status === 'transport_error').length;
  if (answerable === 0) {
    const why = cassette.problems.map((p) => `${p.where}: ${p.message}`).slice(0, 5).join('; ');
    return { ok: false, message: `${options.file} holds no answered call to serve${why ? ` (${why})` : ''}` };
  }
  const mock = createMock({
    cassette,
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.speed !== undefined ? { speed: options.speed } : {}),
    ...(options.replyTimeoutMs !== undefined ? { replyTimeoutMs: options.replyTimeoutMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const host = options.record ? '127.0.0.1' : (options.host ?? '127.0.0.1');
  let guard = createGuard({ loopbackOnly: isLoopbackAddress(host), allowHosts: options.record ? [] : (options.allowHosts ?? []), allowOrigins: options.allowOrigins ?? [] });
  const server = createServer((req, res) => {
    const verdict = guard(req.headers.host, req.headers.origin);
    if (!verdict.ok) return refuse(res, verdict.reason);
    if (isPreflight(req)) return answerPreflight(req, res);
    mock.handle(req, res, corsHeaders(req.headers.origin));
  });
  await listen(server.listen(options.record ? 0 : (options.port ?? 0), host));
  const bound = server.address() as AddressInfo;
  const mockUrl = `http://${urlHostOf(bound.address)}:${bound.port}${mock.paths[0]}`;
  const stopMock = async () => {
    mock.close();
    await closeServer(server);
  };
  let recorder: Mcpscope | undefined;
  if (options.record) {
    try {
      recorder = await startMcpscope({
        target: mockUrl,
        db: options.db ?? ':memory:',
        ...(options.port !== undefined ? { port: options.port } : {}),
        ...(options.host !== undefined ? { host: options.host } : {}),
        ...(options.uiPort !== undefined ? { uiPort: options.uiPort } : {}),
        ...(options.token !== undefined ? { token: options.token } : {}),
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
        ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
      });
    } catch (err) {
      await stopMock();
      throw err;
    }
    // The tap passes Origin on: a page the tap accepted (its own origin included) reaches the mock too.
    const tapPort = new URL(recorder.tapUrl).port;
    const tapOrigins = ['127.0.0.1', 'localhost', '[::1]'].map((name) => `http://${name}:${tapPort}`);
    guard = createGuard({ loopbackOnly: true, allowHosts: [], allowOrigins: [...(options.allowOrigins ?? []), ...tapOrigins] });
  }
  return {
    ok: true,
    value: {
      mcpUrl: recorder?.mcpUrl ?? mockUrl,
      mockUrl,
      paths: mock.paths,
      cassette,
      report,
      ...(recorder ? { recorder } : {}),
      close: async () => {
        await recorder?.close();
        await stopMock();
      },
    },
  };
}
