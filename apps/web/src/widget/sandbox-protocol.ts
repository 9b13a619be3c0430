/**
 * What the dashboard (the widget's host) and mcpscope's sandbox page say to each other beside the
 * MCP Apps JSON-RPC they relay: one envelope, `{ mcpscope: 'widget', … }`, which the official
 * PostMessageTransport ignores (it only parses `jsonrpc: "2.0"` messages).
 *
 * The sandbox page (sandbox/sandbox-main.ts) runs on the widget's own origin, in the outer of the
 * two iframes of ext-apps' sandbox-proxy pattern; the widget's HTML runs in the inner one. Types
 * only: both sides import this file, nothing else of each other.
 */

export const ENVELOPE = 'widget';

/** The `window.openai` globals, as OpenAI's Apps SDK reference lists them. */
export interface OpenAiGlobals {
  theme: 'light' | 'dark';
  userAgent: { device: { type: 'mobile' | 'tablet' | 'desktop' | 'unknown' }; capabilities: { hover: boolean; touch: boolean } };
  locale: string;
  maxHeight: number;
  displayMode: 'inline' | 'fullscreen' | 'pip';
  safeArea: { insets: { top: number; bottom: number; left: number; right: number } };
  toolInput: Record<string, unknown>;
  toolOutput: Record<string, unknown> | null;
  toolResponseMetadata: Record<string, unknown> | null;
  widgetState: Record<string, unknown> | null;
}

export const OPENAI_GLOBAL_KEYS: readonly (keyof OpenAiGlobals)[] = [
  'theme',
  'userAgent',
  'locale',
  'maxHeight',
  'displayMode',
  'safeArea',
  'toolInput',
  'toolOutput',
  'toolResponseMetadata',
  'widgetState',
];

/** The `window.openai` methods a widget may call; each goes to the host as one `openai` message. */
export type OpenAiOp = 'callTool' | 'sendFollowUpMessage' | 'openExternal' | 'requestDisplayMode' | 'setWidgetState' | 'notifyIntrinsicHeight' | 'requestClose';

/** Host → sandbox. */
export type HostToSandbox =
  /** Before the HTML: whether to provide `window.openai`, its first globals, the inner frame's `allow`. */
  | { mcpscope: typeof ENVELOPE; type: 'init'; openai: boolean; globals: OpenAiGlobals; allow: string; floodLimit: number }
  /** The widget's HTML: what `ui/notifications/sandbox-resource-ready` carries, by another road (see widget-bridge.ts). */
  | { mcpscope: typeof ENVELOPE; type: 'resource'; html: string; sandbox: string }
  | { mcpscope: typeof ENVELOPE; type: 'globals'; globals: Partial<OpenAiGlobals> }
  | { mcpscope: typeof ENVELOPE; type: 'openai-reply'; id: number; result?: unknown; error?: string };

/** Sandbox → host. */
export type SandboxToHost =
  | { mcpscope: typeof ENVELOPE; type: 'console'; level: 'error' | 'warn'; text: string }
  | { mcpscope: typeof ENVELOPE; type: 'uncaught'; text: string; where?: string }
  | { mcpscope: typeof ENVELOPE; type: 'csp'; blockedURI: string; effectiveDirective: string; sourceFile?: string; line?: number }
  | { mcpscope: typeof ENVELOPE; type: 'openai'; id?: number; op: OpenAiOp; payload: unknown }
  | { mcpscope: typeof ENVELOPE; type: 'loaded'; ms: number }
  /** The widget document has not fired `load` `ms` after its HTML was written. */
  | { mcpscope: typeof ENVELOPE; type: 'slow'; ms: number }
  /** In the second before: notifications dropped, and messages the widget sent in all. */
  | { mcpscope: typeof ENVELOPE; type: 'flood'; dropped: number; seen: number }
  | { mcpscope: typeof ENVELOPE; type: 'refused'; reason: string };

export function isEnvelope(data: unknown): data is { mcpscope: string; type: string } {
  return typeof data === 'object' && data !== null && (data as { mcpscope?: unknown }).mcpscope === ENVELOPE && typeof (data as { type?: unknown }).type === 'string';
}
