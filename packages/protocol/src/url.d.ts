// URL and URLSearchParams are pure (no I/O) and both browsers and Node provide them; only their
// shape is declared here, as for TextDecoder (text-decoder.d.ts), so that no DOM or Node typings
// enter packages/protocol. The shapes are complete so that they agree with Node's where both meet
// (the tests compile with Node typings).
declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | [string, string][]);
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  entries(): IterableIterator<[string, string]>;
  forEach(callback: (value: string, key: string, parent: URLSearchParams) => void): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  keys(): IterableIterator<string>;
  set(name: string, value: string): void;
  sort(): void;
  toString(): string;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare class URL {
  constructor(url: string, base?: string);
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}
