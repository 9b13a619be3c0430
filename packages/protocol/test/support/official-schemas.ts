// Test-only oracle: the official MCP schema.json of each revision (and the 2026-07-28 examples),
// from wherever spec-files.ts finds them: MCPSCOPE_SPEC_DIR, ../shared/mcp-spec beside the clone,
// or the verified cache `pnpm mcp-spec` fills. Without them, importing this fails the suite with
// one line saying how to provide them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Revision } from '../../src/validate/index.js';
import { locateSpecDir } from './spec-files.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

export const SPEC_DIR = locateSpecDir().dir;

type AnyAjv = Ajv | Ajv2020;
const instances = new Map<Revision, { ajv: AnyAjv; defs: Record<string, unknown>; key: string }>();

function load(rev: Revision) {
  let entry = instances.get(rev);
  if (entry) return entry;
  const schema = JSON.parse(readFileSync(join(SPEC_DIR, rev, 'schema.json'), 'utf8')) as Record<string, unknown>;
  const modern = '$defs' in schema;
  const key = modern ? '$defs' : 'definitions';
  const defs = schema[key] as Record<string, Record<string, unknown>>;
  // Known erratum (README): NumberSchema minimum/maximum/default typed integer instead of number.
  const ns = defs.NumberSchema?.properties as Record<string, Record<string, unknown>> | undefined;
  if (ns) for (const k of ['minimum', 'maximum', 'default']) if (ns[k]?.type === 'integer') ns[k]!.type = 'number';
  const ajv: AnyAjv = modern ? new Ajv2020({ strict: false, allErrors: false }) : new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addFormat('byte', true);
  delete schema.$id;
  ajv.addSchema(schema, `mcp://${rev}/schema.json`);
  entry = { ajv, defs, key };
  instances.set(rev, entry);
  return entry;
}

const compiled = new Map<string, ValidateFunction>();

/** The official validator for one definition, or undefined when the revision lacks it. */
export function officialDefinition(rev: Revision, name: string): ValidateFunction | undefined {
  const { ajv, defs, key } = load(rev);
  if (!(name in defs)) return undefined;
  const id = `${rev}#${name}`;
  let fn = compiled.get(id);
  if (!fn) {
    fn = ajv.compile({ $ref: `mcp://${rev}/schema.json#/${key}/${name}` });
    compiled.set(id, fn);
  }
  return fn;
}

export function officialValid(rev: Revision, name: string, value: unknown): boolean {
  const fn = officialDefinition(rev, name);
  if (!fn) throw new Error(`${rev} has no definition ${name}`);
  return fn(value) as boolean;
}

/** Every example of the 2026-07-28 corpus as [type, file, value]. */
export function officialExamples(): Array<[string, string, unknown]> {
  const root = join(SPEC_DIR, '2026-07-28', 'examples');
  return readdirSync(root).flatMap((type) =>
    readdirSync(join(root, type))
      .filter((f) => f.endsWith('.json'))
      .map((f): [string, string, unknown] => [type, f, JSON.parse(readFileSync(join(root, type, f), 'utf8'))]),
  );
}
