/**
 * Findings on a successful answer that a host rejects or cannot use: the server believes it
 * answered, the client throws the answer away (the TypeScript SDK's client refuses a result whose
 * structuredContent is missing or breaks the tool's outputSchema). At error severity such a row
 * failed, whatever its JSON-RPC status says.
 */
export const HOST_RULE_BREAKS: ReadonlySet<string> = new Set(['structured-content-invalid', 'structured-content-missing', 'tool-result-without-content', 'result-invalid']);

/** The finding that makes a successful answer one a host rejects, if any. */
export function hostRuleBreak<T extends { code: string; severity: string }>(findings: readonly T[]): T | undefined {
  return findings.find((f) => f.severity === 'error' && HOST_RULE_BREAKS.has(f.code));
}
