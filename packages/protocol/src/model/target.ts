import type { JsonObject } from './json-rpc.js';

/** What a request is about, for the timeline's "target" column: tool, resource URI or prompt. */
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
