/**
 * What the export menu says about redaction before a download: in plain words, what will be
 * removed and how many times, or a clear warning when the user opted out.
 */
import type { ExportPreview } from '@mcpscope/protocol';

export interface RedactionSummary {
  tone: 'safe' | 'danger';
  headline: string;
  details: string[];
}

export function summariseRedaction(preview: ExportPreview): RedactionSummary {
  const scope = `${preview.exchanges} exchange${preview.exchanges === 1 ? '' : 's'} (${preview.frames} frame${preview.frames === 1 ? '' : 's'})`;
  if (!preview.redaction.enabled) {
    return { tone: 'danger', headline: `Unredacted: ${scope} exactly as captured, including any tokens, OAuth codes and secrets in bodies.`, details: [] };
  }
  const total = preview.redaction.hits.reduce((n, h) => n + h.count, 0);
  const headline = total === 0
    ? `${scope}; nothing in them matches a redaction rule.`
    : `${scope}; ${total} value${total === 1 ? '' : 's'} will be replaced by [redacted]:`;
  return { tone: 'safe', headline, details: preview.redaction.hits.map((h) => `${h.count}× ${h.rule}`) };
}

/** "card, $.params.arguments.pin" → ["card", "$.params.arguments.pin"] */
export function parseRedactInput(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
