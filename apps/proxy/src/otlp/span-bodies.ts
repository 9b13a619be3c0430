/**
 * Bodies on spans, only with `--otlp-bodies`, and only redacted: the same built-in rules as an
 * export (redaction/export-redaction.ts: credential keys anywhere, OAuth codes, bearer tokens and
 * JWTs inside strings), since a tracing backend is shared further than a laptop. The conventions'
 * opt-in attributes carry what they name (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`
 * for a successful call, `gen_ai.prompt.variable.<name>`); `mcpscope.request.body` and
 * `mcpscope.response.body` carry the whole messages. Each value is cut at BODY_LIMIT characters
 * (a backend drops or rejects huge attributes), with a marker saying how much was cut. Bodies are
 * read up to READ_LIMIT; a larger one is left out whole rather than exported unredacted.
 */
import { isJsonObject, stringifyJson, type ExchangeSummary, type FrameView, type JsonValue } from '@mcpscope/protocol';
import { Redactor } from '../redaction/export-redaction.js';
import type { Attributes } from './span-plan.js';

export const BODY_LIMIT = 16 * 1024;
/** Bodies are read (and so redacted) up to this size. */
export const READ_LIMIT = 1024 * 1024;

export class BodyAttributes {
  private readonly redactor: Redactor;

  constructor(extra: readonly string[] = []) {
    this.redactor = new Redactor({ enabled: true, extra });
  }

  of(ex: ExchangeSummary, request: FrameView | undefined, response: FrameView | undefined): Attributes {
    const out: Attributes = {};
    const req = request && request.kind === 'data' ? this.redacted(request) : undefined;
    const res = response && response.kind === 'data' ? this.redacted(response) : undefined;
    if (req) out['mcpscope.request.body'] = cutText(req.text);
    if (res) out['mcpscope.response.body'] = cutText(res.text);
    const params = isJsonObject(req?.value) && isJsonObject(req.value.params) ? req.value.params : undefined;
    if (ex.method === 'tools/call') {
      if (params && params.arguments !== undefined) out['gen_ai.tool.call.arguments'] = cutText(stringifyJson(params.arguments));
      const result = isJsonObject(res?.value) ? res.value.result : undefined;
      if (ex.status === 'ok' && result !== undefined) out['gen_ai.tool.call.result'] = cutText(stringifyJson(result));
    } else if (ex.method === 'prompts/get' && params && isJsonObject(params.arguments)) {
      for (const [name, value] of Object.entries(params.arguments)) {
        out[`gen_ai.prompt.variable.${name}`] = cutText(typeof value === 'string' ? value : stringifyJson(value));
      }
    }
    return out;
  }

  /**
   * The frame's text redacted, and its JSON value when it is JSON. A body read cut short cannot
   * be parsed, so it could not be redacted by key: it is left out, and the span says so.
   */
  private redacted(frame: FrameView): { text: string; value?: JsonValue } {
    if (frame.truncated) return { text: `[${frame.size} characters, too large to redact: not exported]` };
    const text = this.redactor.body(frame.raw);
    try {
      return { text, value: JSON.parse(text) as JsonValue };
    } catch {
      return { text };
    }
  }
}

function cutText(text: string): string {
  return text.length <= BODY_LIMIT ? text : `${text.slice(0, BODY_LIMIT)}… [${text.length - BODY_LIMIT} more characters cut by mcpscope]`;
}
