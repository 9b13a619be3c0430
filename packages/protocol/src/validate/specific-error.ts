/**
 * Which of Ajv's errors to report. When a value matches none of an anyOf/oneOf's branches, Ajv
 * lists every branch's failure in branch order, so the first error is usually the first branch's
 * ("must be array") and not the branch the sender meant. The intended branch is the one whose
 * discriminator (a `const` property) the value carries, else the one whose type is the value's
 * near miss (an integer field given 3.14); within it, the deepest failure is the most specific.
 * Needs Ajv's `verbose` (errors carry their schema and data).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';

type Schema = { [key: string]: unknown };

const isBranching = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length);

export function mostSpecificError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let candidates = errors.filter((e) => !isBranching(e));
  // Outermost branching first: narrow to the intended branch, then to its nested branchings.
  for (const branching of errors.filter(isBranching).sort((a, b) => a.schemaPath.length - b.schemaPath.length)) {
    const chosen = intendedBranch(branching);
    if (chosen === undefined) continue;
    const prefix = `${branching.schemaPath}/${chosen}/`;
    const inside = candidates.filter((e) => e.schemaPath.startsWith(prefix) || !e.schemaPath.startsWith(`${branching.schemaPath}/`));
    if (inside.some((e) => e.schemaPath.startsWith(prefix))) candidates = inside;
  }
  if (candidates.length === 0) return errors[0];
  // The deepest failure wins (a branch that got further into the value is closer to the intent); ties keep Ajv's order.
  return candidates.reduce((best, e) => (depth(e) > depth(best) ? e : best));
}

/** The index of the branch the value was meant for, when one can be told. */
function intendedBranch(e: ErrorObject): number | undefined {
  const branches = Array.isArray(e.schema) ? (e.schema as Schema[]) : [];
  const data: unknown = e.data;
  const byDiscriminator = branches.findIndex((b) => discriminatorMatches(b, data));
  if (byDiscriminator !== -1) return byDiscriminator;
  const byNearType = branches.findIndex((b) => nearType(b, data));
  return byNearType === -1 ? undefined : byNearType;
}

function discriminatorMatches(branch: Schema, data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const props = branch.properties as Record<string, Schema> | undefined;
  if (!props) return false;
  const consts = Object.entries(props).filter(([, s]) => s && typeof s === 'object' && 'const' in s);
  return consts.length > 0 && consts.every(([k, s]) => (data as Record<string, unknown>)[k] === s.const);
}

/** A branch that wants an integer, given a number with a fraction. */
function nearType(branch: Schema, data: unknown): boolean {
  const types = Array.isArray(branch.type) ? branch.type : [branch.type];
  return typeof data === 'number' && !Number.isInteger(data) && types.includes('integer');
}
