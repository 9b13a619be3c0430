// The capture's state in the dashboard: read when it opens and on every reconnect, then kept by
// the proxy's pushes; a push without marks leaves the marks (and their array) as they were.
import { describe, expect, it } from 'vitest';
import type { CaptureMark, CaptureStatus } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { startCaptureSync, useCapture } from './capture-state.js';

const recording: CaptureStatus = { state: 'recording', notRecorded: { frames: 0, requests: 0 } };
const mark = (id: number, kind: CaptureMark['kind'] = 'mark'): CaptureMark => ({ id, ts: id, afterSeq: id, kind, label: `m${id}` });
const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeApi(marks: CaptureMark[]) {
  const calls = { capture: 0 };
  const api = {
    capture: async () => (calls.capture++, recording),
    marks: async () => ({ marks }),
  } as unknown as ApiClient;
  return { api, calls };
}

describe('capture sync', () => {
  it('reads on open and on each hello, and takes pushed status and marks in between', async () => {
    const { api, calls } = fakeApi([mark(1)]);
    const sync = startCaptureSync(api);
    await tick();
    expect(calls.capture).toBe(1);
    expect(useCapture.getState().marks.map((m) => m.id)).toEqual([1]);

    sync.onEvent({ type: 'capture/update', status: { state: 'paused', pausedByUser: { since: 5 }, notRecorded: { frames: 0, requests: 0 } }, marks: [mark(1), mark(2, 'pause')] });
    expect(useCapture.getState().status?.state).toBe('paused');
    const marks = useCapture.getState().marks;
    expect(marks.map((m) => m.kind)).toEqual(['mark', 'pause']);

    // A count of frames not stored comes without marks: the marks stay, the same array.
    sync.onEvent({ type: 'capture/update', status: { state: 'paused', pausedByUser: { since: 5 }, notRecorded: { frames: 4, requests: 0 } } });
    expect(useCapture.getState().status?.notRecorded.frames).toBe(4);
    expect(useCapture.getState().marks).toBe(marks);

    // A reconnect reads both again: what changed while the socket was down is not missed.
    sync.onEvent({ type: 'hello', head: 0 });
    await tick();
    expect(calls.capture).toBe(2);
    expect(useCapture.getState().status?.state).toBe('recording');
  });
});
