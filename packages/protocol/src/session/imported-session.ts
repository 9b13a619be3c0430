/**
 * Sessions imported from a file (a JSONL export, a HAR) are renamed `import:<file>:<original>`,
 * so imported traffic never pairs with live traffic and reads as imported everywhere. They are
 * read-only: no live server knows them, so replay and anything else that sends must refuse them.
 *
 * The file part never holds a `:` (`%` and `:` are percent-encoded), so `import:<file>:` — up to
 * the first colon after the prefix — names exactly one file's sessions.
 */
export const IMPORTED_SESSION_PREFIX = 'import:';

const encodeFile = (fileName: string) => fileName.replace(/%/g, '%25').replace(/:/g, '%3A');
const decodeFile = (encoded: string) => encoded.replace(/%3A/gi, ':').replace(/%25/g, '%');

/** The key an imported session gets: `import:<file name>:<its key in the file>`. */
export function importedSessionKey(fileName: string, original: string): string {
  return `${IMPORTED_SESSION_PREFIX}${encodeFile(fileName)}:${original}`;
}

export function isImportedSession(sessionKey: string): boolean {
  return sessionKey.startsWith(IMPORTED_SESSION_PREFIX);
}

/** `import:<file>:`, the prefix every session imported from the same file shares; undefined for a live session. */
export function importedFilePrefix(sessionKey: string): string | undefined {
  if (!isImportedSession(sessionKey)) return undefined;
  const end = sessionKey.indexOf(':', IMPORTED_SESSION_PREFIX.length);
  return end === -1 ? sessionKey : sessionKey.slice(0, end + 1);
}

/** The name of the file an imported session came from; undefined for a live session. */
export function importedFileName(sessionKey: string): string | undefined {
  const prefix = importedFilePrefix(sessionKey);
  return prefix === undefined ? undefined : decodeFile(prefix.slice(IMPORTED_SESSION_PREFIX.length).replace(/:$/, ''));
}
