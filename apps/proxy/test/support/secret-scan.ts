/**
 * A small secret scanner for files that leave mcpscope: bearer credentials, JWTs, api_key=
 * values and any literal the test planted. Redaction markers (`[redacted]`, URL-encoded or not)
 * are not secrets.
 */
const PATTERNS: { name: string; re: RegExp }[] = [
  { name: 'bearer token', re: /\bBearer\s+(?!\[redacted\]|\\\[redacted)[A-Za-z0-9._~+/=-]{8,}/g },
  { name: 'JWT', re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  { name: 'api_key value', re: /api[_\\-]*key\\?=(?!\\?\[redacted|%5Bredacted)[^&\s"'\\<)]{4,}/gi },
];

export function findSecrets(text: string, planted: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const { name, re } of PATTERNS) for (const m of text.matchAll(re)) found.push(`${name}: ${m[0]}`);
  for (const value of planted) if (text.includes(value)) found.push(`planted: ${value}`);
  return found;
}
