/**
 * A door record as an export may carry it: its headers, path and bodies through the same
 * Redactor as frames (the user's extra keys and paths, echoes of learnt secrets, credentials in
 * URLs, a `Location`'s or `Referer`'s query too). The record was redacted at capture already; this
 * is the export's own pass.
 */
import type { DoorBody, DoorRecord } from '@mcpscope/protocol';
import type { Redactor } from './export-redaction.js';

export function redactDoorRecord(redactor: Redactor, record: DoorRecord): DoorRecord {
  if (!redactor.options.enabled) return record;
  const out: DoorRecord = {
    ...record,
    path: redactor.url(record.path),
    requestHeaders: redactor.headers(record.requestHeaders),
    responseHeaders: redactor.headers(record.responseHeaders),
  };
  if (record.requestBody) out.requestBody = body(redactor, record.requestBody);
  if (record.responseBody) out.responseBody = body(redactor, record.responseBody);
  if (record.note !== undefined) out.note = redactor.text(record.note);
  return out;
}

function body(redactor: Redactor, b: DoorBody): DoorBody {
  const text = redactor.body(b.text);
  return text === b.text ? b : { ...b, text };
}
