/**
 * The evidence pack, under the dashboard's token-checked `/api`:
 * `GET /evidence?exchange=ID|conversation=KEY&format=md|html&replay=1&unredacted=1` downloads one
 * self-contained file (redacted unless `unredacted=1`). `replay=1` first sends the failed call
 * once more in a fresh session to the live server and includes its answer and the diff.
 */
import { Hono } from 'hono';
import { InspectorError } from '../../core/errors.js';
import { isEvidenceFormat, writeEvidence, type EvidenceDeps, type EvidenceRequest } from '../../evidence/evidence-service.js';

const YES = ['1', 'true', 'yes'];

export function evidenceRoutes(deps: EvidenceDeps): Hono {
  return new Hono().get('/evidence', async (c) => {
    const exchange = c.req.query('exchange');
    const conversation = c.req.query('conversation');
    if ((exchange === undefined) === (conversation === undefined) || exchange === '' || conversation === '') {
      throw new InspectorError('bad_param', 'name one exchange=ID or one conversation=KEY');
    }
    const format = c.req.query('format') ?? 'md';
    if (!isEvidenceFormat(format)) throw new InspectorError('bad_param', 'format must be md or html');
    const req: EvidenceRequest = {
      subject: exchange !== undefined ? { kind: 'exchange', id: exchange } : { kind: 'conversation', key: conversation! },
      format,
      unredacted: YES.includes(c.req.query('unredacted') ?? ''),
      replay: YES.includes(c.req.query('replay') ?? ''),
    };
    const out = await writeEvidence(deps, req, c.req.raw.signal);
    if (!out.ok) throw new InspectorError(out.code, out.message);
    return c.body(out.text, 200, {
      'content-type': out.contentType,
      'content-disposition': `attachment; filename="${out.filename}"`,
      'x-mcpscope-redacted': out.pack.redaction.enabled ? 'yes' : 'no',
      'cache-control': 'no-store',
    });
  });
}
