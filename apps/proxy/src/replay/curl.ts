/**
 * "Copy as curl": the request as a shell command with the headers it would travel with (Accept,
 * session, version, `Mcp-*`). Secrets become `$MCP_…` environment variables unless the user asks
 * for them; everything else is single-quoted so the shell never interprets it.
 */
import { REDACTED } from '../security/redact.js';

export interface CurlInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Secret header names (lower-case) the request carries or carried when captured. */
  secretNames: string[];
  /** Real secret values by name, used only when the user asked for them. */
  secretValues?: Record<string, string>;
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function secretVariable(name: string): string {
  return `MCP_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export function curlCommand(input: CurlInput): string {
  const lines = [`curl -N ${shellQuote(input.url)}`];
  const secrets = new Set(input.secretNames);
  const names = new Set([...Object.keys(input.headers), ...secrets]);
  for (const name of [...names].sort(headerOrder)) {
    const real = input.secretValues?.[name];
    if (secrets.has(name) && real === undefined) {
      // A placeholder the shell expands: `export MCP_AUTHORIZATION='Bearer …'` before running.
      lines.push(`-H "${name}: \${${secretVariable(name)}}"`);
      continue;
    }
    const value = real ?? input.headers[name]!;
    if (value.includes(REDACTED)) continue;
    lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`--data-raw ${shellQuote(input.body)}`);
  return lines.join(' \\\n  ');
}

/** Content negotiation first, then MCP's own headers, then the rest, alphabetically. */
function headerOrder(a: string, b: string): number {
  const rank = (n: string) => (n === 'content-type' || n === 'accept' ? 0 : n.startsWith('mcp-') ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}
