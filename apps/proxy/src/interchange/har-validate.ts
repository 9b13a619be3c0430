/**
 * A structural check of HAR 1.2: every required field present with the type the spec gives it.
 * mcpscope checks its own HAR output with it in tests; it returns problems as
 * `log.entries[3].request.url: …` so a reader knows where to look.
 */

type Check = (value: unknown, at: string, out: string[]) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const str: Check = (v, at, out) => {
  if (typeof v !== 'string') out.push(`${at}: must be a string`);
};
const num: Check = (v, at, out) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) out.push(`${at}: must be a number`);
};
const int: Check = (v, at, out) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) out.push(`${at}: must be an integer`);
};
/** Timings are -1 when not applicable, else non-negative. */
const timing: Check = (v, at, out) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || (v < 0 && v !== -1)) out.push(`${at}: must be -1 or a non-negative number`);
};

function object(fields: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (v, at, out) => {
    if (!isObject(v)) {
      out.push(`${at}: must be an object`);
      return;
    }
    for (const [name, check] of Object.entries(fields)) {
      if (!(name in v)) out.push(`${at}.${name}: is required`);
      else check(v[name], `${at}.${name}`, out);
    }
    for (const [name, check] of Object.entries(optional)) if (name in v && v[name] !== undefined) check(v[name], `${at}.${name}`, out);
    for (const name of Object.keys(v)) {
      if (!(name in fields) && !(name in optional) && !name.startsWith('_') && name !== 'comment') out.push(`${at}.${name}: is not a HAR 1.2 field (custom fields must start with "_")`);
    }
  };
}

function array(item: Check): Check {
  return (v, at, out) => {
    if (!Array.isArray(v)) {
      out.push(`${at}: must be an array`);
      return;
    }
    v.forEach((x, i) => item(x, `${at}[${i}]`, out));
  };
}

const isoDate: Check = (v, at, out) => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v)) out.push(`${at}: must be an ISO 8601 date-time`);
};

const nameValue = object({ name: str, value: str });
const cookie = object({ name: str, value: str }, { path: str, domain: str, expires: str, httpOnly: (v, at, out) => typeof v !== 'boolean' && out.push(`${at}: must be a boolean`), secure: (v, at, out) => typeof v !== 'boolean' && out.push(`${at}: must be a boolean`) });
const postData = object({ mimeType: str }, { text: str, params: array(object({ name: str }, { value: str, fileName: str, contentType: str })) });
const content = object({ size: int, mimeType: str }, { compression: int, text: str, encoding: str });

const request = object(
  { method: str, url: str, httpVersion: str, cookies: array(cookie), headers: array(nameValue), queryString: array(nameValue), headersSize: int, bodySize: int },
  { postData },
);
const response = object(
  { status: int, statusText: str, httpVersion: str, cookies: array(cookie), headers: array(nameValue), content, redirectURL: str, headersSize: int, bodySize: int },
);
const timings = object({ send: timing, wait: timing, receive: timing }, { blocked: timing, dns: timing, connect: timing, ssl: timing });
const cache = object({}, { beforeRequest: (v, at, out) => v !== null && !isObject(v) && out.push(`${at}: must be an object or null`), afterRequest: (v, at, out) => v !== null && !isObject(v) && out.push(`${at}: must be an object or null`) });

const entry = object({ startedDateTime: isoDate, time: num, request, response, cache, timings }, { pageref: str, serverIPAddress: str, connection: str });
const page = object({ startedDateTime: isoDate, id: str, title: str, pageTimings: object({}, { onContentLoad: num, onLoad: num }) });

const har = object({
  log: object(
    { version: str, creator: object({ name: str, version: str }), entries: array(entry) },
    { browser: object({ name: str, version: str }), pages: array(page) },
  ),
});

/** Problems with a whole HAR document (empty when it is valid HAR 1.2). */
export function validateHar(value: unknown): string[] {
  const out: string[] = [];
  har(value, '$', out);
  return out;
}

/** Problems with one entry, for import reports. */
export function validateHarEntry(value: unknown, at: string): string[] {
  const out: string[] = [];
  entry(value, at, out);
  return out;
}
