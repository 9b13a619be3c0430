/**
 * `WWW-Authenticate` as RFC 9110 §11.6.1 defines it: one or more challenges, each an auth-scheme
 * followed by a token68 or by comma-separated `name=value` parameters (token or quoted-string).
 * Commas separate both parameters and challenges; a bare token that is not followed by `=` starts
 * the next challenge. Tolerant: junk never throws, it just yields fewer parameters.
 */

export interface AuthChallenge {
  /** As sent (compare case-insensitively). */
  scheme: string;
  /** Parameter names lower-cased; quoted values unescaped. */
  params: Record<string, string>;
  token68?: string;
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const TOKEN68 = /[A-Za-z0-9._~+/-]+=*/y;
/** `name = value` where value is a token or a quoted string (a lone `=` run is token68 padding). */
const PARAM_AHEAD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*=[ \t]*(?:"|[!#$%&'*+.^_`|~0-9A-Za-z-])/;

export function parseWwwAuthenticate(value: string): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  let i = 0;
  const skip = (chars: RegExp) => {
    while (i < value.length && chars.test(value[i]!)) i++;
  };
  const token = (): string | undefined => {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(value);
    if (!m) return undefined;
    i = TOKEN.lastIndex;
    return m[0];
  };
  const quoted = (): string => {
    let s = '';
    i++; // opening quote
    while (i < value.length && value[i] !== '"') {
      if (value[i] === '\\' && i + 1 < value.length) i++;
      s += value[i];
      i++;
    }
    i++; // closing quote (or past the end)
    return s;
  };

  while (i < value.length) {
    skip(/[\s,]/);
    const scheme = token();
    if (scheme === undefined) {
      i++; // not a token: step over it
      continue;
    }
    const challenge: AuthChallenge = { scheme, params: {} };
    out.push(challenge);
    skip(/[ \t]/);
    // A token68 (`Basic dXNlcjpwYXNz`, `Negotiate abc==`) unless what follows reads as `name=value`.
    if (!PARAM_AHEAD.test(value.slice(i))) {
      TOKEN68.lastIndex = i;
      const t68 = TOKEN68.exec(value);
      if (t68) {
        challenge.token68 = t68[0];
        i = TOKEN68.lastIndex;
        continue;
      }
    }
    // Parameters until a token that is not followed by `=` (the next challenge's scheme).
    for (;;) {
      skip(/[\s,]/);
      const start = i;
      const name = token();
      if (name === undefined) break;
      skip(/[ \t]/);
      if (value[i] !== '=') {
        i = start;
        break;
      }
      i++;
      skip(/[ \t]/);
      const v = value[i] === '"' ? quoted() : (token() ?? '');
      challenge.params[name.toLowerCase()] = v;
    }
  }
  return out;
}

/** The first `Bearer` challenge, if any. */
export function bearerChallenge(value: string | undefined): AuthChallenge | undefined {
  if (value === undefined) return undefined;
  return parseWwwAuthenticate(value).find((c) => c.scheme.toLowerCase() === 'bearer');
}
