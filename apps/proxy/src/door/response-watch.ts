/**
 * Sees what a response sends — status, headers and body bytes — whoever writes it (the forwarder,
 * the guard's 403, the preflight answer, the stdio bridge, Node's implicit headers): every answer
 * passes `writeHead`, `write` and `end`, so the tap's server makes its responses WatchedResponses
 * (`createServer({ ServerResponse: WatchedResponse })`), whose three methods tell the response's
 * observer, when it has one, and pass everything through unchanged, in the same call, so
 * backpressure and errors behave exactly as without them.
 *
 * The methods live on the class, not on each response: the door used to wrap them as own
 * properties of every response, and a response carrying its own `end` (even one that only passed
 * the call on) made V8 allocate the forwarder's per-request objects straight into the old
 * generation, so every request was promoted at the next scavenge: nearly 3× the bytes promoted
 * per scavenge and a quarter more CPU per call with the door on (bench/README.md, 4 Dec 2026).
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';

export interface ResponseObserver {
  /** The response head, as it goes out (header names lower-cased, repeated values joined). */
  head(status: number, headers: Record<string, string>): void;
  /** Body bytes, as written. */
  chunk(data: Buffer | string): void;
}

type AnyFn = (...args: unknown[]) => unknown;

export class WatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Told what this response sends; set by `watchResponse`. */
  observer: ResponseObserver | undefined = undefined;
  /** The head was reported (writeHead may be called again by Node itself). */
  headSeen = false;
}

const { writeHead, write, end } = ServerResponse.prototype as unknown as Record<'writeHead' | 'write' | 'end', AnyFn>;

Object.assign(WatchedResponse.prototype, {
  writeHead(this: WatchedResponse, ...args: unknown[]) {
    const observer = this.observer;
    if (observer !== undefined && !this.headSeen) {
      this.headSeen = true;
      const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
      const given = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null) as OutgoingHttpHeaders | readonly string[] | undefined;
      observer.head(status, flatten(this.getHeaders(), given));
    }
    return writeHead.apply(this, args);
  },
  write(this: WatchedResponse, ...args: unknown[]) {
    if (this.observer !== undefined && isBody(args[0])) this.observer.chunk(args[0]);
    return write.apply(this, args);
  },
  end(this: WatchedResponse, ...args: unknown[]) {
    if (this.observer !== undefined && isBody(args[0])) this.observer.chunk(args[0]);
    return end.apply(this, args);
  },
});

/** Has `observer` told what `res` sends. A response from another server becomes a WatchedResponse first. */
export function watchResponse(res: ServerResponse, observer: ResponseObserver): void {
  if (!(res instanceof WatchedResponse)) Object.setPrototypeOf(res, WatchedResponse.prototype);
  (res as WatchedResponse).observer = observer;
}

const isBody = (x: unknown): x is Buffer | string => (typeof x === 'string' && x.length > 0) || (x instanceof Uint8Array && x.length > 0);

/** Headers set before `writeHead` merged with those given to it (the given win), as strings. */
function flatten(set: OutgoingHttpHeaders, given: OutgoingHttpHeaders | readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: unknown) => {
    if (value === undefined) return;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  for (const name in set) add(name, set[name]);
  if (Array.isArray(given)) {
    // Raw form: [name, value, name, value, …].
    for (let i = 0; i + 1 < given.length; i += 2) add(String(given[i]), given[i + 1]);
  } else if (given) {
    for (const name in given) add(name, (given as OutgoingHttpHeaders)[name]);
  }
  return out;
}
