/**
 * The argv of a command that reads one FILE (`load`, `verify`, `mock`, `evidence`): its options
 * parsed strictly (an unknown option or a missing value is a usage error, in node:util's words),
 * and exactly one positional, the file, or the command's own usage error saying what it takes.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-args.js';

export function parseFileCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, takesOneFile: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError(takesOneFile);
  return { values: parsed.values, file: parsed.positionals[0]! };
}
