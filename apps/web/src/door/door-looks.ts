/** How door things look: verdicts and step colours as icon + word (never colour alone), times. */
import { PROBE_LABELS, ROLE_LABELS, doorRole, probeReason, type DoorRecord, type StepColour, type VerdictKind } from '@mcpscope/protocol';

export const VERDICT_LOOKS: Record<VerdictKind, { icon: string; word: string; tone: string }> = {
  connected: { icon: '✓', word: 'connected', tone: 'ok' },
  failed: { icon: '✕', word: 'failed', tone: 'error' },
  probed: { icon: '○', word: 'probed only', tone: 'muted' },
  incomplete: { icon: '…', word: 'not connected', tone: 'warn' },
};

export const COLOUR_LOOKS: Record<StepColour, { icon: string; word: string; tone: string }> = {
  green: { icon: '✓', word: 'fine', tone: 'ok' },
  amber: { icon: '!', word: 'warning', tone: 'warn' },
  red: { icon: '✕', word: 'problem', tone: 'error' },
  grey: { icon: '·', word: 'information', tone: 'muted' },
};

/** What a record is, in a few words: "probe: HEAD", "token endpoint", "MCP endpoint". */
export function recordKind(r: DoorRecord): string {
  const probe = probeReason(r);
  if (probe) return `probe (${PROBE_LABELS[probe]})`;
  return ROLE_LABELS[doorRole(r)];
}

export function clockTime(ts: number): string {
  const d = new Date(ts);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function ms(value: number | undefined): string {
  return value === undefined ? '—' : value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

export function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}
