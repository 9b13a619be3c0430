/**
 * Splits `--stdio "CMD ARGS"` into argv the way a POSIX shell would tokenise it (single quotes,
 * double quotes, backslash escapes) but with no shell: nothing is expanded, substituted or run
 * besides the one command.
 */

export class CommandSyntaxError extends Error {}

export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else current += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new CommandSyntaxError(`unclosed ${quote} in --stdio command`);
  if (inWord) out.push(current);
  if (out.length === 0) throw new CommandSyntaxError('--stdio needs a command, e.g. --stdio "node server.js"');
  return out;
}
