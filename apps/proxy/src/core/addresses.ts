/** Bind addresses, as the user types them. */

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '0', '*', '0:0:0:0:0:0:0:0', '::0']);

/** Every interface: a listener bound here is reachable from the network. */
export function isWildcardAddress(addr: string): boolean {
  return WILDCARDS.has(addr.trim().toLowerCase());
}
