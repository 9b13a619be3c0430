// What the door records when Node's HTTP parser refuses a connection before the tap sees a
// request. Through the tap this takes Node's headersTimeout (60 s) to happen for an idle socket, so
// the recorder is driven directly, with the error objects Node hands to 'clientError'.
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { DoorRecord } from '@mcpscope/protocol';
import { DoorRecorder } from '../src/door/door-recorder.js';

function recorder(): { door: DoorRecorder; records: DoorRecord[] } {
  const records: DoorRecord[] = [];
  let id = 0;
  const door = new DoorRecorder({ sink: { nextDoorId: () => ++id, doorChanged: (r) => records.push(r) }, now: () => 1_000, mcpPath: '/mcp' });
  return { door, records };
}

const timeout = (rawPacket?: Buffer) => Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }, rawPacket ? { rawPacket } : {});

describe('requests the parser refused', () => {
  it('records nothing for a connection that never sent a byte (a pooled socket left unused, a health check)', () => {
    const { door, records } = recorder();
    door.parserRefused(timeout(), new Socket(), 408);
    door.parserRefused(timeout(Buffer.alloc(0)), new Socket(), 408);
    expect(records).toEqual([]);
  });

  it('records a request whose head never finished, with what arrived', () => {
    const { door, records } = recorder();
    door.parserRefused(timeout(Buffer.from('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le')), new Socket(), 408);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ method: 'POST', path: '/mcp', status: 408, answer: 'tap', requestBytes: 47 });
    expect(records[0]!.note).toContain('ERR_HTTP_REQUEST_TIMEOUT');
  });
});
