/**
 * The start/close boilerplate of the tests that run against a real upstream, once: the upstream
 * (and, with `proxiedUpstream`, the real mcpscope in front of it, capture in memory) started before
 * the tests of the file or describe block that calls it, and closed after them: proxy first, so
 * nothing is left forwarding to a closed upstream. The handle's fields are read inside tests and
 * hooks, once they have started.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Mcpscope, StartOptions } from '../../src/compose/start-mcpscope.js';
import { startTestMcpscope } from '../support/mcpscope.js';

export interface Upstream {
  url: string;
  close(): Promise<void>;
}

export interface UpstreamHandle<U extends Upstream> {
  readonly upstream: U;
}

export interface ProxiedUpstream<U extends Upstream> extends UpstreamHandle<U> {
  /** mcpscope with `--target` the upstream's URL. */
  readonly app: Mcpscope;
}

/** An upstream for the tests that start their own mcpscope (as a CLI child, on a file). */
export function sharedUpstream<U extends Upstream>(start: () => Promise<U>): UpstreamHandle<U> {
  let upstream: U | undefined;
  beforeAll(async () => {
    upstream = await start();
  });
  afterAll(() => upstream?.close());
  return {
    get upstream() {
      return started(upstream, 'upstream');
    },
  };
}

/** An upstream with one in-process mcpscope in front of it, shared by the tests. */
export function proxiedUpstream<U extends Upstream>(start: () => Promise<U>, options: StartOptions = {}): ProxiedUpstream<U> {
  let upstream: U | undefined;
  let app: Mcpscope | undefined;
  beforeAll(async () => {
    upstream = await start();
    app = await startTestMcpscope({ ...options, target: upstream.url });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });
  return {
    get upstream() {
      return started(upstream, 'upstream');
    },
    get app() {
      return started(app, 'mcpscope');
    },
  };
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not running: read it inside a test or hook, after beforeAll`);
  return value;
}
