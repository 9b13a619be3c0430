// The playground's data: edits parse back with a clear error, an edited result keeps what the
// widget does not read, shape changes name the member that moved, an export says it was edited.
import { describe, expect, it } from 'vitest';
import { callWith, dataOf, editedExport, parseTexts, shapeChanges, textsOf } from './playground.js';

const call = { status: 'ok' as const, arguments: { city: 'Lyon' }, result: { content: [{ type: 'text', text: '21°' }], structuredContent: { temperature: 21 }, _meta: { units: 'C' } } };

describe('widget playground data', () => {
  it('round-trips through the editor texts and keeps content when structuredContent is edited', () => {
    const texts = textsOf(dataOf(call));
    const parsed = parseTexts({ ...texts, structuredContent: '{"temperature": -5}' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(callWith(call, parsed.data)).toEqual({ ...call, result: { ...call.result, structuredContent: { temperature: -5 } } });
  });

  it('says which field is not JSON, and that toolInput must be an object', () => {
    expect(parseTexts({ toolInput: '{}', structuredContent: '{oops', meta: '' })).toMatchObject({ ok: false, field: 'structuredContent' });
    expect(parseTexts({ toolInput: '[1]', structuredContent: '', meta: '' })).toMatchObject({ ok: false, field: 'toolInput' });
    // Emptied: the member is absent from the result the widget gets.
    const cleared = parseTexts({ toolInput: '', structuredContent: '', meta: '' });
    expect(cleared.ok && callWith(call, cleared.data)).toEqual({ ...call, arguments: {}, result: { content: call.result.content } });
  });

  it('names a renamed member and a retyped one, not every path below them', () => {
    expect(shapeChanges({ temperature: 21, days: [{ hi: 3, lo: 1 }] }, { temp: 21, days: 'none' })).toEqual([
      { path: '$.days', change: 'retyped', before: 'array', after: 'string' },
      { path: '$.days[*]', change: 'removed', before: 'object' },
      { path: '$.temp', change: 'added', after: 'number' },
      { path: '$.temperature', change: 'removed', before: 'number' },
    ]);
  });

  it('exports edited data marked as edited, naming the call', () => {
    expect(JSON.parse(editedExport('12', 'forecast', dataOf(call)))).toMatchObject({ mcpscope: { edited: true, editedFrom: '12', tool: 'forecast' }, structuredContent: { temperature: 21 } });
  });
});
