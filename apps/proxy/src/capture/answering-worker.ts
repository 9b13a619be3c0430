/**
 * A capture worker thread (the large-frame writer, the tick writer) that answers on a MessagePort
 * and counts its answers in shared memory, so the tap's thread can also wait for an answer
 * synchronously: closing a store must end with the file settled, and `close()` is synchronous.
 *
 * The worker is plain JavaScript evaluated from a string (it then runs the same way from source,
 * the build and the bundle); WORKER_ANSWER defines its `port` and `answer(message)`, and it must
 * answer a `{ type: 'stop' }` message (closing what it holds) with `answer(...)`, then close the
 * port.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** For a worker's source: `port`, and `answer(message)` which posts and counts. */
export const WORKER_ANSWER = `
const port = require('node:worker_threads').workerData.port;
const answered = new Int32Array(require('node:worker_threads').workerData.answered);
const answer = (message) => {
  port.postMessage(message);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
};
`;

/** How long `stop()` waits for the worker to close what it holds. */
const STOP_WAIT_MS = 5000;

export class AnsweringWorker<A> {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  /** Answers the worker has posted (it adds one per answer). */
  private readonly answered = new Int32Array(new SharedArrayBuffer(4));

  /** Starts the thread. `onAnswer` gets each answer; `onGone` once, if the thread fails or exits before `stop()`. */
  constructor(
    source: string,
    workerData: Record<string, unknown>,
    private readonly onAnswer: (answer: A) => void,
    private readonly onGone: (error: Error) => void,
  ) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(source, { eval: true, workerData: { ...workerData, port: port2, answered: this.answered.buffer }, transferList: [port2] });
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
    const seen = Atomics.load(this.answered, 0);
    port.postMessage({ type: 'stop' });
    // Blocking on purpose, as the checkpointer: the store's close() must end with the file settled.
    Atomics.wait(this.answered, 0, seen, STOP_WAIT_MS);
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
