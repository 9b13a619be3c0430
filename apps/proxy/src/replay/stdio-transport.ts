/**
 * Replay to a `--stdio` server in a session of mcpscope's own: an `initialize` spawns a fresh
 * child of the same command (one process is one MCP session), later messages go to that child's
 * stdin as single lines, and its stdout lines come back as frames, answers routed by id. The
 * previous replay child is shut down when a new one starts, and all are on close. Replaying into
 * the live session of the bridge's own child is not done here: the bridge owns that pipe.
 */
import { classifyText, idKey, type LineItem, transportFrameText } from '@mcpscope/protocol';
import { StdioChild } from '../upstream/stdio-child.js';
import type { OutgoingMessage, ReplaySink, ReplayTransport, TransportAnswer } from './replay-transport.js';

interface Waiter {
  sink: ReplaySink;
  resolve(answer: TransportAnswer): void;
}

export class StdioReplayTransport implements ReplayTransport {
  private child: StdioChild | undefined;
  private readonly waiting = new Map<string, Waiter>();
  /** Where unrelated lines (notifications, server requests) go: the latest send's sink. */
  private lastSink: ReplaySink | undefined;

  constructor(private readonly argv: string[]) {}

  async send(out: OutgoingMessage, sink: ReplaySink): Promise<TransportAnswer> {
    const message = classifyText(out.body);
    if (message.kind === 'request' && message.method === 'initialize') await this.restart(sink);
    const child = this.child;
    sink.frame({ direction: 'c2s', kind: 'data', raw: out.body });
    if (!child?.alive) {
      const text = child ? 'the replay stdio server has exited' : 'no replay session is open on the stdio server (send initialize first, or replay in a fresh session)';
      sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('child-exited', text) });
      return { failure: { kind: 'unreachable', message: text } };
    }
    this.lastSink = sink;
    if (out.id === undefined) {
      child.write(out.body.replace(/[\r\n]+/g, ' '));
      return {};
    }
    const key = idKey(out.id);
    const answered = new Promise<TransportAnswer>((resolve) => this.waiting.set(key, { sink, resolve }));
    const onAbort = () => this.settle(key, { failure: { kind: 'unreachable', message: 'abandoned' } });
    out.signal.addEventListener('abort', onAbort, { once: true });
    child.write(out.body.replace(/[\r\n]+/g, ' '));
    try {
      const answer = await answered;
      if (out.signal.aborted) throw out.signal.reason;
      return answer;
    } finally {
      out.signal.removeEventListener('abort', onAbort);
    }
  }

  async endSession(): Promise<void> {
    await this.child?.close();
    this.child = undefined;
  }

  private async restart(sink: ReplaySink): Promise<void> {
    await this.child?.close();
    this.lastSink = sink;
    let child: StdioChild | undefined;
    child = await StdioChild.start(this.argv, {
      onStdoutLine: (line) => this.line(line),
      onStderrLine: (line) => this.lastSink?.frame({ direction: 's2c', kind: 'log', raw: line.text }),
      onExit: (description) => {
        if (this.child !== child) return;
        this.lastSink?.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('child-exited', description) });
        for (const key of [...this.waiting.keys()]) this.settle(key, { failure: { kind: 'unreachable', message: description } });
      },
    }).catch((err: Error) => {
      child = undefined;
      sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('child-error', err.message) });
      return undefined;
    });
    this.child = child;
  }

  private line(line: LineItem): void {
    const msg = classifyText(line.text);
    const key = (msg.kind === 'response' || msg.kind === 'error') && msg.id !== null ? idKey(msg.id) : undefined;
    const waiter = key === undefined ? undefined : this.waiting.get(key);
    const sink = waiter?.sink ?? this.lastSink;
    sink?.frame({ direction: 's2c', kind: 'data', raw: line.text });
    if (msg.kind === 'request') sink?.serverRequest(msg);
    if (waiter && key !== undefined) this.settle(key, { answer: JSON.parse(line.text) as unknown });
  }

  private settle(key: string, answer: TransportAnswer): void {
    const waiter = this.waiting.get(key);
    if (!waiter) return;
    this.waiting.delete(key);
    waiter.resolve(answer);
  }
}
