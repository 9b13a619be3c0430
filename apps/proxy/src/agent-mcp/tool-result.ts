/**
 * Tool results as the MCP spec wants them from tools that declare an outputSchema: the value as
 * `structuredContent`, and in `content` mcpscope's own summary followed by the value inside the
 * `<mcpscope-result>` block (captured.ts), for clients that show text only. Failures a model can
 * act on are tool errors (`isError: true`) with the reason as text; captured text a failure
 * quotes (an upstream's error) goes in the same block, never into mcpscope's sentence.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { inertJson, RESULT_CLOSE, RESULT_OPEN } from './captured.js';

/** The JSON in `content` is cut beyond this (structuredContent always holds the whole value). */
const TEXT_LIMIT = 60_000;

/** `summary` is mcpscope's own words: it must not quote captured text. */
export function toolResult<T extends Record<string, unknown>>(value: T, summary: (value: T) => string): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text: block(summary(value), value) }], structuredContent: value };
}

/** `message` is mcpscope's own words; `captured` holds any recorded text the failure quotes. */
export function toolError(message: string, details?: Record<string, unknown>, captured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: captured ? block(message, { captured }) : message }],
    isError: true,
    ...(details ? { _meta: { 'mcpscope/error': details } } : {}),
  };
}

function block(summary: string, value: unknown): string {
  const json = inertJson(value);
  const body = json.length > TEXT_LIMIT ? `${json.slice(0, TEXT_LIMIT)}… (cut; the structured result has everything)` : json;
  return `${summary}\n${RESULT_OPEN}\n${body}\n${RESULT_CLOSE}`;
}
