/**
 * Everything a span carries passes the export redactor (redaction/export-redaction.ts), with or
 * without `--otlp-bodies`: its name, every attribute of the span, its events and its links, and
 * its status message. Error messages quote bearer tokens, JWTs and `?api_key=` URLs, and a
 * resource URI carries its query; a tracing backend is shared further than a capture file.
 * The identifiers a trace is joined by (`mcp.session.id`, mcpscope's session, exchange and
 * conversation keys) stay as they are, as the capture keeps the `Mcp-Session-Id` header.
 */
import { Redactor } from '../redaction/export-redaction.js';
import type { AttributeValue, Attributes, SpanPlan } from './span-plan.js';

/** Attributes whose value is a URL or URI (`mcp.resource.uri`): its query is read as a URL's. */
const URL_KEY = /\.(uri|url)$/;
const IDENTIFIERS = new Set(['mcp.session.id', 'mcpscope.session.key', 'mcpscope.exchange.id', 'mcpscope.replay_of', 'mcpscope.conversation.key']);

/** The plan with every string it carries redacted; a fresh redactor per span, so nothing accumulates. */
export function redactSpanPlan(plan: SpanPlan): SpanPlan {
  const redactor = new Redactor({ enabled: true });
  const text = (value: string) => redactor.text(value);
  const url = (value: string) => redactor.text(redactor.url(value));
  const attributes = (attrs: Attributes): Attributes => {
    const out: Attributes = {};
    for (const [key, value] of Object.entries(attrs)) out[key] = IDENTIFIERS.has(key) ? value : redactValue(value, URL_KEY.test(key) ? url : text);
    return out;
  };
  const out: SpanPlan = {
    ...plan,
    name: text(plan.name),
    attributes: attributes(plan.attributes),
    events: plan.events.map((e) => ({ ...e, name: text(e.name), attributes: attributes(e.attributes) })),
    links: plan.links.map((l) => ({ ...l, attributes: attributes(l.attributes) })),
  };
  if (plan.error) out.error = { type: text(plan.error.type), message: text(plan.error.message) };
  return out;
}

function redactValue(value: AttributeValue, text: (value: string) => string): AttributeValue {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map(text);
  return value;
}
