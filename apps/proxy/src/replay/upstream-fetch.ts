/**
 * The fetch replay sends with (the tap itself forwards with node streams: tap/upstream-request.ts).
 * undici's defaults (300 s headers and body timeouts) would kill a long replayed `tools/call`;
 * an inspector must never end a call on its own.
 */
import { Agent, fetch as undiciFetch } from 'undici';

export type UpstreamFetch = (input: string, init: RequestInit & { duplex?: 'half' }) => Promise<Response>;

const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000, connections: 256 });

export const upstreamFetch: UpstreamFetch = (input, init) =>
  undiciFetch(input, { ...(init as object), dispatcher: agent, redirect: 'manual' } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
