/**
 * Bind addresses and host names, as the user types them and as browsers send them. Every check
 * goes through the WHATWG URL host parser first, so spellings a browser or the OS treats as the
 * same address are the same here: `0:0:0:0:0:0:0:1` is `[::1]`, `127.1` and `0x7f.1` are
 * `127.0.0.1`, `::ffff:127.0.0.1` is an IPv4-mapped loopback address.
 */

/**
 * The canonical host of an address or host name, without port, as URLs spell it (IPv6 in
 * brackets, lower case); undefined when it is not a host at all.
 */
export function canonicalHost(name: string): string | undefined {
  const bare = name.trim();
  if (bare === '') return undefined;
  const bracketed = bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
  try {
    const url = new URL(`http://${bracketed}`);
    // A port, a path or credentials mean `name` was more than a host.
    return url.port === '' && url.pathname === '/' && url.username === '' ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** `[::ffff:7f00:1]`: the URL parser's spelling of `::ffff:127.0.0.1` (127.0.0.0/8, IPv4-mapped). */
const MAPPED_LOOPBACK = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** A canonical host (see canonicalHost) that reaches only this machine. */
export function isLoopbackHost(canonical: string): boolean {
  return canonical === 'localhost' || canonical === '[::1]' || IPV4_LOOPBACK.test(canonical) || MAPPED_LOOPBACK.test(canonical);
}

/** An address or host name that reaches only this machine, however it is spelled. */
export function isLoopbackAddress(addr: string): boolean {
  const canonical = canonicalHost(addr);
  return canonical !== undefined && isLoopbackHost(canonical);
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '[::]', '[::ffff:0:0]']);

/** Every interface: a listener bound here is reachable from the network. */
export function isWildcardAddress(addr: string): boolean {
  const trimmed = addr.trim();
  if (trimmed === '*') return true;
  const canonical = canonicalHost(trimmed);
  return canonical !== undefined && WILDCARD_HOSTS.has(canonical);
}

/**
 * The host to put in a URL for a listener, from the address it is actually bound to
 * (`server.address().address`): a wildcard listener is reached on 127.0.0.1, a listener bound
 * to `::1` only on `[::1]` (printing 127.0.0.1 for it would name an address nothing listens on).
 */
export function urlHostOf(boundAddress: string): string {
  if (isWildcardAddress(boundAddress)) return '127.0.0.1';
  const canonical = canonicalHost(boundAddress) ?? boundAddress;
  // `::ffff:127.0.0.1`, as Node reports a mapped bind, is reached on plain 127.0.0.1.
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
