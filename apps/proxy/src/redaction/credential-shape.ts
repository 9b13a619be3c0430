/**
 * Header values that are credentials by their shape, whatever the header is called: a server
 * invents its own header (`X-Functions-Key`, `X-Auth-Key`, `X-Authorization`) faster than any
 * list of names grows. Three shapes:
 * - an HTTP credential: `Bearer <token68>` or `Basic <token68>` as the whole value (RFC 9110
 *   §11.4). A challenge (`Bearer realm="…"`, `Bearer error=invalid_token`) has auth-params after
 *   the scheme, not a token68, and is not one;
 * - a JWT (three base64url parts, the first starting `eyJ`) anywhere in the value;
 * - a token: one run of 16 or more token characters mixing letters and digits. Only asked of
 *   headers whose name has a credential word in it (secret-names.ts, `shaped`): a long request id
 *   under another name is not a secret.
 * Every test is a few character comparisons before any regex runs: every header of every request
 * through the tap passes here.
 */

const HTTP_CREDENTIAL = /^(?:Bearer|Basic)[ \t]+[A-Za-z0-9._~+/-]{4,}=*[ \t]*$/i;
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;
const TOKEN = /^[A-Za-z0-9._~+/=-]{16,}$/;

/** A `Bearer`/`Basic` credential or a JWT: a credential in any header. */
export function isCredentialValue(value: string): boolean {
  const c = value.charCodeAt(0) | 0x20;
  if (c === 0x62 /* b */ && HTTP_CREDENTIAL.test(value)) return true;
  return value.length >= 24 && value.includes('eyJ') && JWT.test(value);
}

/** A long token mixing letters and digits: a credential when its header's name says it may be one. */
export function isTokenLike(value: string): boolean {
  return value.length >= 16 && TOKEN.test(value) && /[A-Za-z]/.test(value) && /[0-9]/.test(value);
}
