/**
 * `window.openai` inside the widget, as OpenAI's Apps SDK reference documents it: the globals
 * (toolInput, toolOutput, toolResponseMetadata, widgetState, theme, displayMode, maxHeight, locale,
 * userAgent, safeArea) readable synchronously from the first script on, the methods (callTool,
 * sendFollowUpMessage, openExternal, requestDisplayMode, setWidgetState, notifyIntrinsicHeight,
 * requestClose) answered by the host, and the window events ChatGPT fires: `openai:set_globals`
 * (detail `{ globals }`, on every change) and `openai:tool_response` (after callTool).
 *
 * ChatGPT itself is the one part that cannot run here, so this is a stand-in built from its public
 * reference (developers.openai.com/apps-sdk/reference, "window.openai component bridge") and the
 * types OpenAI's examples copy from ChatGPT's web sandbox (`OpenAiGlobals`, `SetGlobalsEvent`,
 * `RequestDisplayMode` "for mobile, PiP is always coerced to fullscreen"). Where the reference is
 * silent, the choice is ours and said so: callTool resolves with the tool's CallToolResult as the
 * server returned it; `openai:tool_response` carries `{ tool: { name, args }, result }`.
 *
 * Values handed to the widget are cloned into its own realm, so `instanceof Array` and friends
 * behave as they do in ChatGPT.
 */
import { OPENAI_GLOBAL_KEYS, type OpenAiGlobals, type OpenAiOp } from '../sandbox-protocol.js';

export interface OpenAiShim {
  update(globals: Partial<OpenAiGlobals>): void;
  reply(id: number, result: unknown, error: string | undefined): void;
}

type Post = (op: OpenAiOp, payload: unknown, id?: number) => void;

export function installOpenAi(win: Window & typeof globalThis, initial: OpenAiGlobals, post: Post): OpenAiShim {
  const state: OpenAiGlobals = { ...initial };
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void; tool?: { name: string; args: unknown } }>();
  let next = 1;
  const inWidget = <T>(value: T): T => (value === undefined || value === null ? value : (win.structuredClone(value) as T));
  const request = (op: OpenAiOp, payload: unknown, tool?: { name: string; args: unknown }) =>
    new win.Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, ...(tool ? { tool } : {}) });
      post(op, payload, id);
    });
  const setGlobals = (globals: Partial<OpenAiGlobals>) => {
    Object.assign(state, globals);
    win.dispatchEvent(new win.CustomEvent('openai:set_globals', { detail: { globals: inWidget(globals) } }));
  };

  const api: Record<string, unknown> = {
    callTool: (name: string, args?: Record<string, unknown>) => request('callTool', { name, args: args ?? {} }, { name, args: args ?? {} }),
    sendFollowUpMessage: (args: { prompt: string }) => request('sendFollowUpMessage', args),
    openExternal: (args: { href: string }) => post('openExternal', args),
    requestDisplayMode: (args: { mode: OpenAiGlobals['displayMode'] }) => request('requestDisplayMode', args),
    setWidgetState: (widgetState: Record<string, unknown>) => {
      setGlobals({ widgetState });
      return request('setWidgetState', { state: widgetState });
    },
    notifyIntrinsicHeight: (height: number) => post('notifyIntrinsicHeight', { height }),
    requestClose: () => post('requestClose', {}),
  };
  for (const key of OPENAI_GLOBAL_KEYS) {
    Object.defineProperty(api, key, { enumerable: true, get: () => inWidget(state[key]) });
  }
  Object.defineProperty(win, 'openai', { value: Object.freeze(api), configurable: false, writable: false });

  return {
    update: setGlobals,
    reply(id, result, error) {
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      if (error !== undefined) return p.reject(new win.Error(error));
      p.resolve(inWidget(result));
      if (p.tool) win.dispatchEvent(new win.CustomEvent('openai:tool_response', { detail: inWidget({ tool: p.tool, result }) }));
    },
  };
}
