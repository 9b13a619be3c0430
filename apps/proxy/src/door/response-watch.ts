/**
 * Sees what a response sends — status, headers and body bytes — whoever writes it (the forwarder,
 * the guard's 403, the preflight answer, the stdio bridge, Node's implicit headers): every answer
 * passes `writeHead`, `write` and `end`, so the door wraps those three on the response object
 * itself. The wrappers only look and pass everything through unchanged, in the same call, so
 * backpressure and errors behave exactly as without them.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface ResponseObserver {
  /** The response head, as it goes out (header names lower-cased, repeated values joined). */
  head(status: number, headers: Record<string, string>): void;
  /** Body bytes, as written. */
  chunk(data: Buffer | string): void;
}

type AnyFn = (...args: unknown[]) => unknown;

export function watchResponse(res: ServerResponse, observer: ResponseObserver): void {
  const writeHead = res.writeHead as unknown as AnyFn;
  const write = res.write as unknown as AnyFn;
  const end = res.end as unknown as AnyFn;
  let headSeen = false;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!headSeen) {
      headSeen = true;
      const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
      const given = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null) as OutgoingHttpHeaders | readonly string[] | undefined;
      observer.head(status, flatten(this.getHeaders(), given));
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    if (isBody(args[0])) observer.chunk(args[0]);
    return write.apply(this, args);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (isBody(args[0])) observer.chunk(args[0]);
    return end.apply(this, args);
  } as ServerResponse['end'];
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
