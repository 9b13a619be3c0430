// Conversations are derived like everything else: what live capture stored — tick by tick, across
// restarts that resume from the deriver snapshot — equals what `mcpscope rebuild` derives from the
// frames alone, for any interleaving of several hosts (ChatGPT chats with and without their
// conversation id, probing or not, one behind a credential, and an SDK client's long session).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FrameInput } from '@mcpscope/protocol';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import { rebuildDerived } from '../src/capture/rebuild.js';
import { chatgptCall, interleave, sdkSession, type Step } from '../../../packages/protocol/test/support/hosts.js';
import { traffic } from './store-helpers.js';

function hosts(): Step[][] {
  const chat = (tag: string, calls: number, o: Parameters<typeof chatgptCall>[1]) => Array.from({ length: calls }, (_, i) => chatgptCall(`${tag}-${i}`, o)).flat();
  return [
    chat('chat-a', 3, { hostId: 'conv-a', probe: true }),
    chat('chat-b', 3, { hostId: 'conv-b' }),
    chat('chat-c', 2, {}),
    chat('chat-d', 2, { credential: 'fp-d' }),
    sdkSession('sdk-1', 'my-agent', 4),
  ];
}

/** Every derived row conversations touch, as stored. */
function dump(store: CaptureStore): unknown {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    conversations: all('SELECT * FROM conversations ORDER BY key'),
    sessions: all('SELECT session_key, conversation_key, summary FROM sessions ORDER BY session_key'),
    exchanges: all('SELECT id, conversation_key, summary FROM exchanges ORDER BY id'),
    diagnostics: all('SELECT frame_seq, exchange_id, code, path FROM diagnostics ORDER BY id'),
  };
}

describe('conversations: live capture equals rebuild', () => {
  it('for random interleavings, tick boundaries and restarts', () => {
    const scripts = hosts();
    const total = scripts.reduce((n, s) => n + s.length, 0);
    fc.assert(
      fc.property(
        fc.array(fc.nat(scripts.length - 1), { minLength: total, maxLength: total }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (picks, ticks, restarts) => {
          const steps = interleave(scripts, picks);
          const store = new CaptureStore(':memory:');
          let pipeline = new CapturePipeline(store);
          let at = 0;
          let tick = 0;
          while (at < steps.length) {
            const n = ticks[tick % ticks.length]!;
            for (const s of steps.slice(at, at + n)) pipeline.record({ ...s, ts: 1_000_000 + (at++) * 5 } as FrameInput);
            pipeline.flush();
            // Now and then the proxy restarts: the next pipeline resumes from the stored snapshot.
            if (restarts[tick % restarts.length]) {
              pipeline.close();
              pipeline = new CapturePipeline(store);
            }
            tick++;
          }
          pipeline.close();
          const live = dump(store);
          rebuildDerived(store);
          expect(dump(store)).toEqual(live);
          // And the hosts came out as they are: each ChatGPT chat with its id holds its own three
          // sessions (the chats without one join a ChatGPT conversation by credential or time: guesses).
          const convs = store.conversations();
          for (const id of ['conv-a', 'conv-b']) {
            const conv = convs.find((c) => c.hostId === id)!;
            expect(conv.joinedBy.host).toBe(3);
            const mine = store.sessionsOf(conv.key).filter((s) => s.joinedBy === 'host').map((s) => s.sessionKey.slice(0, 6));
            expect(mine).toEqual([`chat-${id.slice(-1)}`, `chat-${id.slice(-1)}`, `chat-${id.slice(-1)}`]);
          }
          expect(convs.find((c) => c.host === 'my-agent')!.churn).toMatchObject({ sessions: 1, toolsCall: 4 });
          store.close();
        },
      ),
      { numRuns: 20 },
    );
  });

  it('where the capture\'s writes cut the traffic does not change what is stored (last activity included)', () => {
    const frames = traffic();
    const stored = (cuts: number[]) => {
      const store = new CaptureStore(':memory:');
      const pipeline = new CapturePipeline(store);
      let next = cuts[0]!;
      frames.forEach((f, i) => {
        pipeline.record(f);
        if (i + 1 === next) {
          pipeline.flush();
          next += cuts[(i + 1) % cuts.length]!;
        }
      });
      pipeline.close();
      const rows = dump(store);
      store.close();
      return rows;
    };
    // Every frame its own write is the reference: nothing can fall between two writes.
    const reference = stored([1]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }), (cuts) => {
        expect(stored(cuts)).toEqual(reference);
      }),
      { numRuns: 30 },
    );
  });
});
