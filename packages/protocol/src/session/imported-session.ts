/**
 * Sessions imported from a file (a JSONL export, a HAR) are renamed `import:<file>:<original>`,
 * so imported traffic never pairs with live traffic and reads as imported everywhere. They are
 * read-only: no live server knows them, so replay and anything else that sends must refuse them.
 */
export const IMPORTED_SESSION_PREFIX = 'import:';

/** The key an imported session gets: `import:<file name>:<its key in the file>`. */
export function importedSessionKey(fileName: string, original: string): string {
  return `${IMPORTED_SESSION_PREFIX}${fileName}:${original}`;
}

export function isImportedSession(sessionKey: string): boolean {
  return sessionKey.startsWith(IMPORTED_SESSION_PREFIX);
}
