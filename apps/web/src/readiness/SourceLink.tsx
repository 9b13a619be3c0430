/**
 * Where a check's rule comes from, as a link: the spec, a host's docs, or a field report (what
 * developers observed, not a published rule), which is marked as such.
 */
import type { CheckSource } from '@mcpscope/protocol';

const KIND_LABEL: Record<CheckSource['kind'], string> = { spec: 'spec', docs: 'docs', 'field-report': 'field report' };

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

export function SourceLink({ source }: { source: CheckSource }) {
  const safe = /^https:\/\//.test(source.url);
  return (
    <span className="check-source" data-testid="check-source" data-kind={source.kind}>
      <span className={`badge ${source.kind === 'field-report' ? 'tone-warn' : 'tone-muted'}`}>{KIND_LABEL[source.kind]}</span>
      {safe ? (
        <a href={source.url} target="_blank" rel="noreferrer noopener" title={`${source.url} (checked ${source.checked})`}>
          {hostOf(source.url)}
        </a>
      ) : (
        <span>{source.url}</span>
      )}
    </span>
  );
}
