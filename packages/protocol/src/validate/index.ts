/**
 * @mcpscope/protocol/validate — schema validation of MCP traffic (Ajv, the SDK's zod schemas).
 * A separate entry so the browser bundle, which imports only `@mcpscope/protocol`, never pulls
 * Ajv or zod in.
 */
export { SchemaValidator, envelopeIssues, resultDefinition } from './schema-validator.js';
export type { MessageCheck, SchemaIssue, SchemaIssueCode } from './schema-validator.js';
export { resolveDefinition } from './definitions.js';
export { ToolSchemaCompiler } from './tool-schemas.js';
export { createValidator } from './create-validator.js';
export type { CompileResult, CompiledSchema, ValidatorPort } from '../diagnostics/validator-port.js';
export {
  DEFAULT_REVISION,
  METHODS,
  MODERN_REVISION,
  NOTIFICATIONS,
  REVISIONS,
  isRevision,
  methodIn,
  notificationIn,
  revisionAtLeast,
  senderAllowed,
} from '../revisions/revisions.js';
export type { MethodInfo, NotificationInfo, Revision } from '../revisions/revisions.js';
