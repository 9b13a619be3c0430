// Builders for frames fed to the deriver in tests.
import type { Frame } from '../../src/index.js';

export function frameMaker(sessionKey = 's1', transport: Frame['transport'] = 'http-json') {
  let seq = 0;
  return (direction: Frame['direction'], body: unknown, extra: Partial<Frame> = {}): Frame => {
    seq++;
    return {
      seq,
      ts: seq * 10,
      sessionKey,
      direction,
      transport,
      kind: 'data',
      raw: typeof body === 'string' ? body : JSON.stringify(body),
      ...extra,
    };
  };
}
