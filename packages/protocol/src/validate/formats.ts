/**
 * The string formats the official MCP schemas use (`uri`, `uri-template`), from ajv-formats, and
 * `byte` (base64) accepted as the official schema's own tooling does.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv2020, formats: string[]) => Ajv2020;
// ajv-formats is CommonJS: its default export arrives wrapped under some loaders.
const addFormatsFn = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export function addFormats(ajv: Ajv2020): void {
  addFormatsFn(ajv, ['uri', 'uri-template', 'date-time', 'email']);
  ajv.addFormat('byte', true);
}
