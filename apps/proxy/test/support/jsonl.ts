/**
 * Reads a JSONL export in tests: the header line, the frame lines, and the door records
 * (`"type":"request"`) that follow the frames. Tests that look at frames must not trip over
 * the door records, which carry no `raw`.
 */
export interface JsonlFrameLine {
  seq: number;
  sessionKey: string;
  raw: string;
  [field: string]: unknown;
}

export function jsonlFrameLines(jsonl: string): JsonlFrameLine[] {
  return jsonl
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as JsonlFrameLine & { type?: string })
    .filter((line) => line.type !== 'request');
}
