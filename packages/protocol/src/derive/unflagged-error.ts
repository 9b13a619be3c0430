/**
 * Unflagged business errors: a tools/call result without `isError: true` whose content is shaped
 * like a failure. The tool failed, but the host shows a success and the model may read the error
 * as data — the first common mistake of the course this project grew from, seen from the other
 * side, and a recurring complaint in public issues of MCP hosts.
 *
 * Conservative on purpose: each rule looks at one unambiguous shape (a field named `error`, a
 * `status` of "error", text that *starts* like a printed error or an HTTP error status), never at
 * words anywhere in a text, so ordinary results (server-everything's, checked by a test) stay quiet.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

interface Rule {
  /** The rule in words, for the diagnostic's help. */
  describe: string;
  /** The JSON path (from the result) of what matched, or undefined. */
  test(result: JsonObject): string | undefined;
}

const FAILED_STATUS = new Set(['error', 'failed', 'failure']);
/** "Error:", "error:", "TypeError:", "ValueError:", "SomethingException:", a Python traceback. */
const ERROR_TEXT = /^\s*(?:error\s*:|[A-Z][A-Za-z]*(?:Error|Exception)\s*:|Traceback \(most recent call last\))/i;
const REASONS = 'Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Request Timeout|Conflict|Gone|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout';
/** "HTTP 500…", "HTTP/1.1 404…", "404 Not Found", "Request failed with status code 503". */
const HTTP_ERROR_TEXT = new RegExp(`^\\s*(?:HTTP(?:\\/\\d(?:\\.\\d)?)?\\s+[45]\\d\\d\\b|[45]\\d\\d\\s+(?:${REASONS})\\b|Request failed with status code [45]\\d\\d\\b)`, 'i');

export const UNFLAGGED_ERROR_RULES: readonly Rule[] = [
  {
    describe: 'structuredContent has an "error" member that is set (not null, false or empty)',
    test: (r) => {
      const sc = r.structuredContent;
      if (!isJsonObject(sc) || !('error' in sc)) return undefined;
      const e = sc.error;
      return e === null || e === false || e === '' || (isJsonObject(e) && Object.keys(e).length === 0) ? undefined : '$.result.structuredContent.error';
    },
  },
  {
    describe: 'structuredContent.status is "error", "failed" or "failure" (any case), or structuredContent.success is false',
    test: (r) => {
      const sc = r.structuredContent;
      if (!isJsonObject(sc)) return undefined;
      if (typeof sc.status === 'string' && FAILED_STATUS.has(sc.status.toLowerCase())) return '$.result.structuredContent.status';
      return sc.success === false ? '$.result.structuredContent.success' : undefined;
    },
  },
  {
    describe: 'the first text block starts like a printed error: "Error:", "<Something>Error:", "<Something>Exception:" or "Traceback (most recent call last)"',
    test: (r) => firstText(r, ERROR_TEXT),
  },
  {
    describe: 'the first text block starts with an HTTP error status: "HTTP 500", "HTTP/1.1 404", "404 Not Found", "Request failed with status code 503"',
    test: (r) => firstText(r, HTTP_ERROR_TEXT),
  },
];

export interface UnflaggedError {
  path: string;
  rule: string;
}

/** The first rule a successful-looking tool result breaks, or undefined. */
export function unflaggedError(result: JsonObject): UnflaggedError | undefined {
  if (result.isError === true || result.resultType === 'input_required') return undefined;
  for (const rule of UNFLAGGED_ERROR_RULES) {
    const path = rule.test(result);
    if (path !== undefined) return { path, rule: rule.describe };
  }
  return undefined;
}

function firstText(result: JsonObject, pattern: RegExp): string | undefined {
  const content: JsonValue | undefined = result.content;
  if (!Array.isArray(content)) return undefined;
  const at = content.findIndex((b) => isJsonObject(b) && b.type === 'text' && typeof b.text === 'string');
  if (at < 0) return undefined;
  const text = (content[at] as JsonObject).text as string;
  return pattern.test(text.slice(0, 200)) ? `$.result.content[${at}].text` : undefined;
}
