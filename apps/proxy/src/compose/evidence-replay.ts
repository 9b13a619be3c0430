/**
 * The evidence pack's control replay (evidence/control-replay.ts) done by this mcpscope's replay
 * service: always in a fresh session (mcpscope opens its own with the server it proxies), through
 * the same body checks as `POST /api/replay`, so it only ever goes to the configured upstream.
 */
import type { ControlReplay } from '../evidence/control-replay.js';
import { parseReplayBody } from '../replay/replay-body.js';
import type { ReplayService } from '../replay/replay-service.js';

export function evidenceReplay(service: ReplayService): ControlReplay {
  return async ({ exchangeId, message }, signal) => {
    const body = parseReplayBody({ exchangeId, message, mode: 'fresh' }, ['exchangeId', 'message', 'mode']);
    if (!body.ok) return { ok: false, message: body.error.message };
    const result = await service.replay(body.value, signal);
    if (result.ok) return { ok: true, exchange: result.value.exchange };
    return { ok: false, message: result.error.message, ...(result.error.exchange ? { exchange: result.error.exchange } : {}) };
  };
}
