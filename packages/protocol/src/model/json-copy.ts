/**
 * A deep copy of JSON data (what deriver state is made of: parsed messages and plain records).
 * Here rather than `structuredClone` because this package is typed without DOM or Node globals.
 */
export function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
