/**
 * The validator the proxy hands to CaptureDeriver: message schemas by revision plus tool schemas.
 */
import type { ValidatorPort } from '../diagnostics/validator-port.js';
import { SchemaValidator } from './schema-validator.js';
import { ToolSchemaCompiler } from './tool-schemas.js';

export function createValidator(): ValidatorPort {
  const messages = new SchemaValidator();
  const tools = new ToolSchemaCompiler();
  return {
    validateMessage: (check) => messages.validateMessage(check),
    compileToolSchema: (schema) => tools.compile(schema),
  };
}
