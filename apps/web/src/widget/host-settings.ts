/**
 * The preview's host settings — which host it plays, theme, display mode, locale, a desktop or a
 * mobile width, max height — and what they become on each bridge: the MCP Apps host context
 * (ext-apps `McpUiHostContext`) and the `window.openai` globals (OpenAI's `OpenAiGlobals`).
 * Pure: settings in, values out.
 */
import type { OpenAiGlobals } from './sandbox-protocol.js';

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
export type Device = 'desktop' | 'mobile';
/** `chatgpt`: window.openai and the MCP Apps bridge, as ChatGPT offers both; `mcp-apps`: the bridge only. */
export type HostProfile = 'chatgpt' | 'mcp-apps';

export interface HostSettings {
  profile: HostProfile;
  theme: 'light' | 'dark';
  displayMode: DisplayMode;
  locale: string;
  device: Device;
  maxHeight: number;
  /** Where the widget's tool calls go: a fresh session labelled "widget preview", or the call's own. */
  sessionMode: 'fresh' | 'session';
}

/** ChatGPT's conversation column on desktop, and a phone's width. */
export const DEVICE_WIDTH: Record<Device, number> = { desktop: 768, mobile: 375 };
export const PIP_SIZE = { width: 360, height: 320 };
export const DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip'];
export const LOCALES: readonly string[] = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES', 'ja-JP', 'pt-BR'];
/** A phone's safe area (status bar and home indicator); none on desktop. */
const SAFE_AREA: Record<Device, { top: number; bottom: number; left: number; right: number }> = {
  desktop: { top: 0, bottom: 0, left: 0, right: 0 },
  mobile: { top: 0, bottom: 34, left: 0, right: 0 },
};

export function defaultSettings(theme: 'light' | 'dark'): HostSettings {
  const lang = typeof navigator !== 'undefined' ? navigator.language : 'en-US';
  return { profile: 'chatgpt', theme, displayMode: 'inline', locale: LOCALES.includes(lang) ? lang : 'en-US', device: 'desktop', maxHeight: 500, sessionMode: 'fresh' };
}

/** What a host grants for a requested mode: on mobile, picture-in-picture becomes fullscreen (OpenAI's RequestDisplayMode type). */
export function grantDisplayMode(requested: string, device: Device): DisplayMode {
  const mode = (DISPLAY_MODES as readonly string[]).includes(requested) ? (requested as DisplayMode) : 'inline';
  return mode === 'pip' && device === 'mobile' ? 'fullscreen' : mode;
}

/** The widget's box for these settings; `stageHeight` is what fullscreen fills. */
export function containerOf(s: HostSettings, stageHeight: number): { width: number; maxHeight?: number; height?: number } {
  if (s.displayMode === 'fullscreen') return { width: DEVICE_WIDTH[s.device], height: stageHeight };
  if (s.displayMode === 'pip') return { width: PIP_SIZE.width, maxHeight: PIP_SIZE.height };
  return { width: DEVICE_WIDTH[s.device], maxHeight: s.maxHeight };
}

/** The user agent string both bridges are told (the preview says what it is). */
export function userAgentString(s: HostSettings): string {
  return `mcpscope widget preview (${s.profile === 'chatgpt' ? 'ChatGPT-like host' : 'MCP Apps host'}; ${s.device})`;
}

export interface ToolInfo {
  id?: string | number;
  tool: Record<string, unknown>;
}

/** ext-apps `McpUiHostContext` for these settings. */
export function hostContext(s: HostSettings, stageHeight: number, toolInfo?: ToolInfo): Record<string, unknown> {
  const mobile = s.device === 'mobile';
  const ctx: Record<string, unknown> = {
    theme: s.theme,
    displayMode: s.displayMode,
    availableDisplayModes: mobile ? ['inline', 'fullscreen'] : [...DISPLAY_MODES],
    containerDimensions: containerOf(s, stageHeight),
    locale: s.locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: userAgentString(s),
    platform: mobile ? 'mobile' : 'web',
    deviceCapabilities: { touch: mobile, hover: !mobile },
    safeAreaInsets: SAFE_AREA[s.device],
    styles: { variables: themeVariables(s.theme) },
  };
  if (toolInfo) ctx.toolInfo = toolInfo;
  return ctx;
}

/** The `window.openai` layout and environment globals for these settings. */
export function openAiEnvironment(s: HostSettings, stageHeight: number): Pick<OpenAiGlobals, 'theme' | 'displayMode' | 'maxHeight' | 'locale' | 'userAgent' | 'safeArea'> {
  const box = containerOf(s, stageHeight);
  const mobile = s.device === 'mobile';
  return {
    theme: s.theme,
    displayMode: s.displayMode,
    maxHeight: box.maxHeight ?? box.height ?? s.maxHeight,
    locale: s.locale,
    userAgent: { device: { type: mobile ? 'mobile' : 'desktop' }, capabilities: { hover: !mobile, touch: mobile } },
    safeArea: { insets: SAFE_AREA[s.device] },
  };
}

/** A few of MCP Apps' standard style variables, so widgets that apply host styles look at home. */
function themeVariables(theme: 'light' | 'dark'): Record<string, string> {
  const dark = theme === 'dark';
  return {
    '--color-background-primary': dark ? '#212121' : '#ffffff',
    '--color-background-secondary': dark ? '#2a2a2a' : '#f5f5f5',
    '--color-text-primary': dark ? '#ececec' : '#0d0d0d',
    '--color-text-secondary': dark ? '#b4b4b4' : '#5d5d5d',
    '--color-border-primary': dark ? '#3a3a3a' : '#e5e5e5',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    '--border-radius-md': '8px',
  };
}
