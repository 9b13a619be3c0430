/**
 * Diagnostics: findings about a frame or an exchange. Malformed traffic is data, never an
 * exception: every problem mcpscope can name becomes one of these, with a stable code.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** The frame the finding is about. */
  frameSeq: number;
  /** The exchange (timeline row) the frame belongs to, when known. */
  exchangeId?: string;
  /** Stable, kebab-case code, e.g. `invalid-json`, `id-reused-in-flight`. */
  code: string;
  severity: Severity;
  /** What is wrong and how to fix it, in plain words. */
  message: string;
  /** JSON path into the frame's body (`$.params.arguments.budget`), when it points somewhere. */
  path?: string;
}
