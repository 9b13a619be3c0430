/**
 * What the deriver needs from a schema validator, as plain types. The implementation (Ajv, the
 * SDK's zod schemas) lives behind `@mcpscope/protocol/validate`, so the browser bundle — which
 * imports only this package's root — never loads it; the proxy passes one to CaptureDeriver.
 */
import type { JsonObject, JsonValue } from '../model/json-rpc.js';
import type { Revision } from '../revisions/revisions.js';

export type SchemaIssueCode = 'envelope-invalid' | 'params-invalid' | 'result-invalid' | 'error-invalid';

export interface SchemaIssue {
  code: SchemaIssueCode;
  /** JSON path into the message (`$.params.arguments`). */
  path: string;
  message: string;
  /** The definition the value failed, e.g. `CallToolResult`. */
  definition?: string;
  /** For a missing property: its name. */
  missing?: string;
  /**
   * `warning` where the schema and JSON-RPC 2.0 disagree and the sender followed JSON-RPC (an
   * error that answers an unreadable request with `id: null`); errors otherwise.
   */
  severity?: 'warning';
}

export interface MessageCheck {
  revision: Revision;
  /** Who sent the message. */
  sender: 'client' | 'server';
  /** The parsed message object (one item of a batch, never the array). */
  value: JsonObject;
  /** For a response: the request it answers, when known. */
  request?: { method: string; params?: JsonObject };
}

/** A tool's JSON Schema compiled for repeated use; issues carry paths relative to the value. */
export type CompiledSchema = (value: JsonValue) => Array<{ path: string; message: string }>;

export type CompileResult = { ok: true; check: CompiledSchema } | { ok: false; reason: 'over-budget' | 'invalid-schema'; detail: string };

export interface ValidatorPort {
  validateMessage(check: MessageCheck): SchemaIssue[];
  /** Compiles a tool's inputSchema/outputSchema (dialect from `$schema`, 2020-12 by default) within a budget. */
  compileToolSchema(schema: JsonObject): CompileResult;
}
