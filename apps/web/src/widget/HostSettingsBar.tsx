/** The preview's host settings, switchable while the widget runs (host profile reloads it). */
import { DISPLAY_MODES, LOCALES, type HostSettings } from './host-settings.js';

interface Props {
  settings: HostSettings;
  onChange(next: HostSettings): void;
  onReload(): void;
  canCall: boolean;
}

function Segmented<T extends string>({ label, value, options, onPick, testid }: { label: string; value: T; options: readonly T[]; onPick(v: T): void; testid: string }) {
  return (
    <span className="segmented" role="group" aria-label={label} data-testid={testid}>
      {options.map((o) => (
        <button key={o} type="button" className={o === value ? 'on' : ''} aria-pressed={o === value} onClick={() => onPick(o)}>
          {o}
        </button>
      ))}
    </span>
  );
}

export function HostSettingsBar({ settings, onChange, onReload, canCall }: Props) {
  const set = (patch: Partial<HostSettings>) => onChange({ ...settings, ...patch });
  return (
    <div className="widget-settings" data-testid="widget-settings">
      <label title="ChatGPT offers window.openai and the MCP Apps bridge; other MCP Apps hosts only the bridge. Changing it reloads the widget.">
        host{' '}
        <select value={settings.profile} data-testid="widget-profile" onChange={(e) => set({ profile: e.target.value as HostSettings['profile'] })}>
          <option value="chatgpt">ChatGPT (window.openai + MCP Apps)</option>
          <option value="mcp-apps">MCP Apps host (bridge only)</option>
        </select>
      </label>
      <Segmented label="Theme" testid="widget-theme" value={settings.theme} options={['light', 'dark'] as const} onPick={(theme) => set({ theme })} />
      <Segmented label="Display mode" testid="widget-display-mode" value={settings.displayMode} options={DISPLAY_MODES} onPick={(displayMode) => set({ displayMode })} />
      <Segmented label="Width" testid="widget-device" value={settings.device} options={['desktop', 'mobile'] as const} onPick={(device) => set({ device })} />
      <label>
        locale{' '}
        <select value={settings.locale} data-testid="widget-locale" onChange={(e) => set({ locale: e.target.value })}>
          {LOCALES.map((l) => (
            <option key={l}>{l}</option>
          ))}
        </select>
      </label>
      <label>
        max height{' '}
        <input type="number" min={100} max={2000} step={50} value={settings.maxHeight} data-testid="widget-max-height" onChange={(e) => set({ maxHeight: Math.max(100, Number(e.target.value) || 100) })} />
      </label>
      <label title="Where the widget's own tool calls go">
        calls go to{' '}
        <select value={settings.sessionMode} disabled={!canCall} data-testid="widget-session-mode" onChange={(e) => set({ sessionMode: e.target.value as HostSettings['sessionMode'] })}>
          <option value="fresh">a fresh session (widget preview)</option>
          <option value="session">the call’s own session</option>
        </select>
      </label>
      <button type="button" className="small" onClick={onReload} data-testid="widget-reload">
        Reload
      </button>
    </div>
  );
}
