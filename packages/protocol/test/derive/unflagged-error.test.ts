// The unflagged business-error heuristic: each rule on the shape it names, and the shapes it must
// leave alone (real server-everything results are checked in apps/proxy/test/unflagged-everything.test.ts).
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, diagnosticHelp, UNFLAGGED_ERROR_RULES, unflaggedError, type JsonObject } from '../../src/index.js';
import { frameMaker } from '../support/frames.js';

const text = (t: string): JsonObject => ({ content: [{ type: 'text', text: t }] });

describe('unflaggedError', () => {
  it.each<[string, JsonObject, string]>([
    ['structuredContent.error', { content: [], structuredContent: { error: 'customer not found' } }, '$.result.structuredContent.error'],
    ['an error object', { content: [], structuredContent: { error: { code: 'E42' } } }, '$.result.structuredContent.error'],
    ['status "error"', { content: [], structuredContent: { status: 'Error', detail: 'x' } }, '$.result.structuredContent.status'],
    ['status "failed"', { content: [], structuredContent: { status: 'failed' } }, '$.result.structuredContent.status'],
    ['success: false', { content: [], structuredContent: { success: false } }, '$.result.structuredContent.success'],
    ['"Error:"', text('Error: the upstream API refused the key'), '$.result.content[0].text'],
    ['"error:" after blanks', text('  error: timeout'), '$.result.content[0].text'],
    ['a printed exception', text('TypeError: Cannot read properties of undefined'), '$.result.content[0].text'],
    ['a Python traceback', text('Traceback (most recent call last):\n  File "x.py"'), '$.result.content[0].text'],
    ['HTTP 500', text('HTTP 500 from https://api.example.com'), '$.result.content[0].text'],
    ['HTTP/1.1 404', text('HTTP/1.1 404 Not Found'), '$.result.content[0].text'],
    ['404 Not Found', text('404 Not Found'), '$.result.content[0].text'],
    ['axios', text('Request failed with status code 503'), '$.result.content[0].text'],
    ['the first text block, after an image', { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }, { type: 'text', text: 'Error: no' }] }, '$.result.content[1].text'],
  ])('flags %s', (_name, result, path) => {
    expect(unflaggedError(result)?.path).toBe(path);
  });

  it.each<[string, JsonObject]>([
    ['isError: true (already flagged)', { content: [{ type: 'text', text: 'Error: x' }], isError: true }],
    ['error: null', { content: [], structuredContent: { error: null, value: 1 } }],
    ['error: false', { content: [], structuredContent: { error: false } }],
    ['an empty error object', { content: [], structuredContent: { error: {} } }],
    ['status "ok"', { content: [], structuredContent: { status: 'ok' } }],
    ['success: true', { content: [], structuredContent: { success: true } }],
    ['words about errors', text('Error handling is explained in chapter 3.')],
    ['"error" later in the text', text('The build finished. error: none')],
    ['a count of 404 pages', text('404 pages were indexed')],
    ['an HTTP 200', text('HTTP 200 OK')],
    ['a status elsewhere', text('The server answered with HTTP 500 twice, then recovered')],
    ['a second text block', { content: [{ type: 'text', text: 'Done.' }, { type: 'text', text: 'Error: ignored' }] }],
    ['input_required', { resultType: 'input_required', content: [{ type: 'text', text: 'Error: need more' }] }],
    ['no content', {}],
  ])('leaves alone %s', (_name, result) => {
    expect(unflaggedError(result)).toBeUndefined();
  });

  it('lists every rule in the diagnostic\'s help', () => {
    const help = diagnosticHelp('unflagged-business-error')!;
    for (const rule of UNFLAGGED_ERROR_RULES) expect(help).toContain(rule.describe);
  });

  it('becomes a warning on the tools/call answer, pointing at what matched', () => {
    const d = new CaptureDeriver();
    const f = frameMaker('s1');
    d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup' } }));
    const out = d.ingest(f('s2c', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{}' }], structuredContent: { error: 'not found' } } }));
    expect(out.diagnostics).toEqual([expect.objectContaining({ code: 'unflagged-business-error', severity: 'warning', path: '$.result.structuredContent.error', exchangeId: '1' })]);
    expect(out.exchanges[0]).toMatchObject({ status: 'ok', diagnostics: 1 });
    // Only tools/call results: a resource that says "Error:" is content, not a tool outcome.
    d.ingest(f('c2s', { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'x://y' } }));
    expect(d.ingest(f('s2c', { jsonrpc: '2.0', id: 2, result: { contents: [{ uri: 'x://y', text: 'Error: x' }] } })).diagnostics).toEqual([]);
  });
});
