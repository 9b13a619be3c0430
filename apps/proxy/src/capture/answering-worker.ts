/**
 * A capture worker thread (the large-frame writer's, the capture engine's) that answers on a
 * MessagePort and counts its answers in shared memory, so the tap's thread can also wait for an
 * answer synchronously: closing a store must end with the file settled, and `close()` is synchronous.
 *
 * A worker is a module of its own (`workerAnswerer()` gives it its `port` and `answer(message)`),
 * started from its URL beside the module that starts it (`moduleWorkerUrl`). It must answer a
 * `{ type: 'stop' }` message (closing what it holds) with an answer whose `id` is -1, then close the port.
 *
 * A module worker runs from three layouts: the tsc build (`dist/capture/x.js`), the published
 * bundle (`dist/cli/x.js`, a second entry beside `mcpscope.js`: release/pack.ts), and the
 * TypeScript source under tsx or vitest (`src/capture/x.ts`). The source needs tsx's loader in
 * the worker, and the `mcpscope-source` condition for the workspace packages, as vitest gives the
 * main thread; Node 20 does not pass `--import` on to a worker, so a small evaluated bootstrap
 * registers both before importing the module.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';

/** Where a worker started with `claimsLate` is in its start (the second slot of the shared counter). */
const STARTING = 0;
const CLAIMED = 1;
const ABANDONED = 2;

/**
 * For a module worker: the port it answers on; `answer(message)`, which posts and counts; and
 * `claim()`, for a worker started with `claimsLate`: call it right before taking what `stop()`
 * would have to release (its SQLite connection). It returns false when the starter has given the
 * worker up meanwhile: then take nothing, close the port and end.
 */
export function workerAnswerer(): { port: MessagePort; answer(message: unknown): void; claim(): boolean } {
  const data = workerData as { port: MessagePort; answered: SharedArrayBuffer };
  const answered = new Int32Array(data.answered);
  return {
    port: data.port,
    answer(message) {
      data.port.postMessage(message);
      Atomics.add(answered, 0, 1);
      Atomics.notify(answered, 0);
    },
    claim: () => Atomics.compareExchange(answered, 1, STARTING, CLAIMED) === STARTING,
  };
}

/**
 * The URL of a worker module named `name` beside `base` (the starting module's `import.meta.url`),
 * in whichever layout runs (see the header): `name.ts` from source, `name.js` built or bundled.
 */
export function moduleWorkerUrl(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** Starts a worker module from TypeScript source: tsx's loader and the source condition, then the module. */
const SOURCE_BOOT = `
const { workerData } = require('node:worker_threads');
require('node:module').register(workerData.sourceCondition);
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

/** A loader hook that resolves workspace packages to their TypeScript (package.json's `mcpscope-source`). */
const SOURCE_CONDITION = `data:text/javascript,${encodeURIComponent('export async function resolve(s, c, next) { return next(s, { ...c, conditions: [...c.conditions, "mcpscope-source"] }); }')}`;

function startWorker(entry: URL, workerData: Record<string, unknown>, transferList: MessagePort[]): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, transferList });
  const tsx = pathToFileURL(tsxEsmApi(entry)).href;
  return new Worker(SOURCE_BOOT, { eval: true, workerData: { ...workerData, entry: entry.href, tsx, sourceCondition: SOURCE_CONDITION }, transferList });
}

/** tsx's ESM loader API (its `import` export: the `require` one cannot register hooks in a worker), found from `from`. */
function tsxEsmApi(from: URL): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  return join(dirname(manifest), exports['./esm/api']!.import.default);
}

/** How long `stop()` waits for the worker to close what it holds. */
const STOP_WAIT_MS = 5000;

export class AnsweringWorker<A> {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly claimsLate: boolean;
  /** Answers the worker has posted (it adds one per answer), then where its start is (see `claimsLate`). */
  private readonly answered = new Int32Array(new SharedArrayBuffer(8));

  /** Starts the thread. `onAnswer` gets each answer; `onGone` once, if the thread fails or exits before `stop()`. */
  constructor(
    /** The worker module's URL (`moduleWorkerUrl`). */
    source: URL,
    workerData: Record<string, unknown>,
    private readonly onAnswer: (answer: A) => void,
    private readonly onGone: (error: Error) => void,
    options: {
      /**
       * The worker holds nothing until it calls `claim()` (workerAnswerer), after its slow start
       * (loading modules, compiling): a `stop()` before that ends it without waiting for its start.
       */
      claimsLate?: boolean;
    } = {},
  ) {
    this.claimsLate = options.claimsLate === true;
    const { port1, port2 } = new MessageChannel();
    const worker = startWorker(source, { ...workerData, port: port2, answered: this.answered.buffer }, [port2]);
    worker.on('error', (err) => this.gone(err));
    worker.on('exit', () => this.gone(new Error('the thread stopped')));
    // It must not keep a process alive that is otherwise done.
    worker.unref();
    port1.on('message', (answer: A) => this.onAnswer(answer));
    port1.unref();
    this.worker = worker;
    this.port = port1;
  }

  get alive(): boolean {
    return this.port !== undefined;
  }

  /** Posts to the worker (a copy of `message`); false once it is gone. */
  post(message: unknown): boolean {
    if (!this.port) return false;
    this.port.postMessage(message);
    return true;
  }

  /** Delivers answers as they come, blocking, while `waiting()` holds, for at most `ms`. */
  settle(waiting: () => boolean, ms: number): void {
    const deadline = Date.now() + ms;
    while (waiting() && this.port && Date.now() < deadline) {
      const seen = Atomics.load(this.answered, 0);
      let message = receiveMessageOnPort(this.port);
      if (message === undefined) {
        Atomics.wait(this.answered, 0, seen, Math.max(1, deadline - Date.now()));
        message = receiveMessageOnPort(this.port);
      }
      if (message !== undefined) this.onAnswer(message.message as A);
    }
  }

  /** Asks the worker to close what it holds, waits for that (bounded), and ends it. */
  stop(): void {
    const port = this.port;
    if (!port) return;
    this.port = undefined;
    if (this.claimsLate && Atomics.compareExchange(this.answered, 1, STARTING, ABANDONED) === STARTING) {
      // It holds nothing yet, and will take nothing: no need to wait for its start to end.
      port.close();
      void this.worker!.terminate();
      this.worker = undefined;
      return;
    }
    port.postMessage({ type: 'stop' });
    // Blocking on purpose: the store's close() must end with the file settled.
    // Its answer is the one with id -1: a worker still starting answers `ready` first.
    const deadline = Date.now() + STOP_WAIT_MS;
    for (;;) {
      const seen = Atomics.load(this.answered, 0);
      let stopped = false;
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        if ((m.message as { id?: unknown }).id === -1) stopped = true;
        else this.onAnswer(m.message as A);
      }
      if (stopped || Date.now() >= deadline) break;
      Atomics.wait(this.answered, 0, seen, Math.max(1, deadline - Date.now()));
    }
    port.close();
    void this.worker!.terminate();
    this.worker = undefined;
  }

  private gone(error: Error): void {
    const port = this.port;
    if (!port) return;
    this.port = undefined;
    this.worker = undefined;
    port.close();
    this.onGone(error);
  }
}
