// Systematic mutations of a JSON value: drop each key, swap each value for one of another JSON
// type, add an unknown key to each object. Feeds the differential test against the official schemas.
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const REPLACEMENTS: Json[] = [null, 0, 1.5, -7, 'text', '', true, [], [1], {}, { a: 1 }];

function kind(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'number';
  return typeof v;
}

function setAt(root: Json, path: (string | number)[], fn: (parent: Json, key: string | number) => void): Json {
  const copy = JSON.parse(JSON.stringify(root)) as Json;
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  fn(node as Json, path[path.length - 1]!);
  return copy;
}

/** Every single-step mutation of `value`, labelled by what was done where. */
export function mutations(value: Json): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  const visit = (node: Json, path: (string | number)[]) => {
    if (path.length > 0) {
      const where = path.join('.');
      if (typeof path[path.length - 1] === 'string') {
        out.push([`drop ${where}`, setAt(value, path, (p, k) => delete (p as Record<string, Json>)[k])]);
      }
      for (const r of REPLACEMENTS) {
        if (kind(r) === kind(node) && JSON.stringify(r) === JSON.stringify(node)) continue;
        out.push([`${where} = ${JSON.stringify(r)}`, setAt(value, path, (p, k) => ((p as Record<string | number, Json>)[k] = r))]);
      }
    }
    if (Array.isArray(node)) node.forEach((child, i) => visit(child, [...path, i]));
    else if (node && typeof node === 'object') {
      out.push([`add ${path.join('.') || '$'}.x-extra`, setAt({ root: value }, ['root', ...path, 'x-extra'], (p, k) => ((p as Record<string, Json>)[k] = 1))]);
      const last = out[out.length - 1]!;
      last[1] = (last[1] as { root: Json }).root;
      for (const [k, child] of Object.entries(node)) visit(child, [...path, k]);
    }
  };
  visit(value, []);
  return out;
}
