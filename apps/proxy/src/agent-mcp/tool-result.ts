/**
 * Tool results as the MCP spec wants them from tools that declare an outputSchema: the value as
 * `structuredContent`, and a text rendering of it in `content` for clients that show text only.
 * Failures a model can act on are tool errors (`isError: true`) with the reason as text.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Text longer than this is cut in `content` (structuredContent always holds the whole value). */
const TEXT_LIMIT = 60_000;

export function toolResult<T extends Record<string, unknown>>(value: T, text: (value: T) => string): CallToolResult & { structuredContent: T } {
  const rendered = text(value);
  return {
    content: [{ type: 'text', text: rendered.length > TEXT_LIMIT ? `${rendered.slice(0, TEXT_LIMIT)}\n… (cut; the structured result has everything)` : rendered }],
    structuredContent: value,
  };
}

export function toolError(message: string, details?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true, ...(details ? { _meta: { 'mcpscope/error': details } } : {}) };
}
