/**
 * A session key cut to fit a cell. An imported session's key starts `import:<file>:` (the same
 * for every session of the file), so cutting it as is shows one identical stub for all of them:
 * the cut is taken from the session's own key, after that prefix.
 */
import { IMPORTED_SESSION_PREFIX, isImportedSession } from '@mcpscope/protocol';

export function ownSessionKey(sessionKey: string): string {
  if (!isImportedSession(sessionKey)) return sessionKey;
  const afterFile = sessionKey.indexOf(':', IMPORTED_SESSION_PREFIX.length);
  return afterFile === -1 ? sessionKey : sessionKey.slice(afterFile + 1);
}

export function shortSessionKey(sessionKey: string, length: number): string {
  return ownSessionKey(sessionKey).slice(0, length);
}
