/**
 * JSON paths as diagnostics write them: `$`, `$.params.arguments.budget`, `$.content[0].text`,
 * `$["odd key"]`. The tree, the schema check and the diagnostics list all use this one spelling,
 * so a diagnostic's path finds its node by string equality.
 */
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENT.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** True when `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  const next = path[ancestor.length];
  return next === undefined || next === '.' || next === '[';
}
