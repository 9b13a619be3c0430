// The official schemas' verdict on one message, dispatched the way the specification does:
// the JSON-RPC envelope, then the definition for the method (a result: its request's method).
import type { JsonObject } from '../../src/index.js';
import { methodIn, notificationIn, resultDefinition, type MessageCheck } from '../../src/validate/index.js';
import { officialDefinition, officialValid } from './official-schemas.js';

const TYPED_ERRORS: Record<number, string> = { [-32020]: 'HeaderMismatchError', [-32021]: 'MissingRequiredClientCapabilityError', [-32022]: 'UnsupportedProtocolVersionError' };

export function officialMessageValid(check: MessageCheck): boolean {
  const { revision: rev, value: v } = check;
  if (!officialValid(rev, 'JSONRPCMessage', v)) return false;
  if (typeof v.method === 'string') {
    const info = 'id' in v ? methodIn(v.method, rev) : notificationIn(v.method, rev);
    if (!info) return true;
    const def = 'request' in info ? info.request : info.definition;
    return officialValid(rev, def, v);
  }
  if ('error' in v) {
    const typed = rev === '2026-07-28' ? TYPED_ERRORS[(v.error as JsonObject).code as number] : undefined;
    return typed ? officialValid(rev, typed, v) : true;
  }
  if ('result' in v && check.request) {
    const def = resultDefinition(rev, check.request, v.result);
    if (!def || !officialDefinition(rev, def)) return true;
    return officialValid(rev, def, v.result);
  }
  return true;
}
