/**
 * A capture's client side as virtual-client scripts for `mcpscope load`: one script per captured
 * session that sent at least one request. A legacy-era script opens its session first
 * (`initialize` as captured: the captured revision, capabilities and clientInfo; then
 * `notifications/initialized`); a 2026-07-28 script has no handshake (every request carries its
 * own `_meta`). Then every call and client notification in capture order, each with the captured
 * think time before it. Bodies are encoded once: a virtual client sends the captured text (ids
 * are per session, so reusing them across virtual clients is what separate clients do).
 */
import { targetOf, type Cassette, type CassetteCall, type CassetteSession, type JsonObject } from '@mcpscope/protocol';

export interface LoadStep {
  /** `tools/call get-sum`, `resources/read`: the row the step's outcome counts in. */
  key: string;
  method: string;
  /** A request (an answer is awaited) or a notification (accepted, not counted). */
  request: boolean;
  message: JsonObject;
  body: Buffer;
  /** The captured client's headers (secrets redacted at capture). */
  headers?: Record<string, string>;
  /** Captured time since the previous step of the session, in ms. */
  thinkMs: number;
  /** The captured call, to compare the live answer with. */
  call?: CassetteCall;
}

export interface LoadScript {
  sessionKey: string;
  era: 'legacy' | 'modern';
  steps: LoadStep[];
}

export type LoadPlan = { ok: true; scripts: LoadScript[]; calls: number } | { ok: false; message: string };

const FALLBACK_VERSION = '2025-11-25';

export function planLoad(cassette: Cassette): LoadPlan {
  const scripts = cassette.sessions.map(scriptOf).filter((s) => s.steps.some((step) => step.request && step.method !== 'initialize'));
  if (scripts.length === 0) {
    return { ok: false, message: 'the capture holds no client traffic to replay: no session sent a request besides initialize (a capture of server messages only, or an empty one)' };
  }
  return { ok: true, scripts, calls: scripts.reduce((n, s) => n + s.steps.filter((step) => step.request).length, 0) };
}

function scriptOf(session: CassetteSession): LoadScript {
  const steps: LoadStep[] = [];
  let last: number | undefined;
  const think = (ts: number) => {
    const gap = last === undefined ? 0 : Math.max(0, ts - last);
    last = ts;
    return gap;
  };
  if (session.era === 'legacy') {
    const init = session.initialize;
    const message: JsonObject = init?.request ?? { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: session.protocolVersion ?? FALLBACK_VERSION, capabilities: session.clientCapabilities ?? {}, clientInfo: session.clientInfo ?? { name: 'mcpscope-load', version: '0.1.0' } } };
    steps.push({ key: 'initialize', method: 'initialize', request: true, message, body: encode(message), thinkMs: think(init?.startTs ?? session.firstTs), ...(init ? { call: init } : {}), ...(init?.headers ? { headers: init.headers } : {}) });
    const initialized = session.steps.find((s) => s.kind === 'notification' && s.notification.method === 'notifications/initialized');
    const note = initialized?.kind === 'notification' ? initialized.notification : undefined;
    const initializedMessage = note?.message ?? { jsonrpc: '2.0', method: 'notifications/initialized' };
    steps.push({ key: 'notifications/initialized', method: 'notifications/initialized', request: false, message: initializedMessage, body: encode(initializedMessage), thinkMs: think(note?.ts ?? last ?? session.firstTs) });
  }
  for (const step of session.steps) {
    if (step.kind === 'notification') {
      const { method, message, ts } = step.notification;
      // The handshake is sent above; a cancellation names a request of the captured run.
      if (method === 'notifications/initialized' || method === 'notifications/cancelled') continue;
      steps.push({ key: method, method, request: false, message, body: encode(message), thinkMs: think(ts) });
      continue;
    }
    const call = step.call;
    if (call === session.initialize) continue;
    const target = targetOf(call.method, call.params);
    steps.push({ key: target !== undefined && call.method === 'tools/call' ? `${call.method} ${target}` : call.method, method: call.method, request: true, message: call.request, body: encode(call.request), thinkMs: think(call.startTs), call, ...(call.headers ? { headers: call.headers } : {}) });
  }
  return { sessionKey: session.sessionKey, era: session.era, steps };
}

function encode(message: JsonObject): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}
