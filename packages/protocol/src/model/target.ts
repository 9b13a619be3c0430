/**
 * What a request is about — its tool, resource URI or prompt — in one place: the timeline's target
 * column, the store's `target` column, tool checks and MRTR chains all read it from here.
 */
import type { JsonObject } from './json-rpc.js';

/** The tool name, resource URI or prompt name a request is about; undefined for other methods. */
export function targetOf(method: string, params: JsonObject | undefined): string | undefined {
  if (!params) return undefined;
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof params.name === 'string' ? params.name : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof params.uri === 'string' ? params.uri : undefined;
    default:
      return undefined;
  }
}
