// Credentials quoted inside free text lose their values; the words around them, and prose that
// only looks like an assignment, stay as written.
import { describe, expect, it } from 'vitest';
import { redactCredentialsInText } from '../src/redaction/redact-text.js';

describe('redactCredentialsInText', () => {
  it.each([
    ['GET https://api.example/v1?api_key=sk-123456&format=csv failed', 'GET https://api.example/v1?api_key=%5Bredacted%5D%20(9%20chars)&format=csv failed'],
    ['login failed: password=hunter2 rejected', 'login failed: password=[redacted] (7 chars) rejected'],
    ['upstream answered {"api_key":"sk-abcdef","ok":false}', 'upstream answered {"api_key":"[redacted] (9 chars)","ok":false}'],
    ['(client_secret=cs_live_1)', '(client_secret=[redacted] (9 chars))'],
  ])('%s', (text, expected) => {
    expect(redactCredentialsInText(text)).toBe(expected);
    expect(redactCredentialsInText(expected)).toBe(expected);
  });

  it.each([
    'exit code=1 after 3 retries',
    'the key=value pairs are parsed left to right',
    'set timeout=30 and retries=2',
    '{"code":-32602,"message":"Invalid params"}',
    'see https://example.com/search?q=mcp&page=2',
    'a == b and c => d',
  ])('leaves %s as written', (text) => {
    expect(redactCredentialsInText(text)).toBe(text);
  });
});
