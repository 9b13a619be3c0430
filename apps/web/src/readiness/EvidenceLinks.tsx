/**
 * A check's evidence cell: each finding's message with a link to what it rests on (an exchange,
 * opened in the Exchanges view's detail pane, or a door record, opened in Connections) and the
 * JSON path inside it; for a pass, what passed; for not seen, the traffic that would show it.
 * Finding messages and paths quote captured text (tool names, URIs): rendered as text only.
 */
import { useState } from 'react';
import type { EvidenceLink, Finding } from '@mcpscope/protocol';
import { useUi } from '../store/ui-store.js';
import { openDoorRecord } from '../ui/HttpLayer.js';
import type { CheckRow } from './readiness-model.js';

/** Findings listed before "show all": a check over 45 tools would fill the screen. */
const SHOWN = 4;

function Link({ evidence, note }: { evidence: EvidenceLink; note: string }) {
  const target =
    evidence.exchangeId !== undefined ? (
      <button type="button" className="link" data-testid="evidence-link" data-exchange={evidence.exchangeId} title="Open this exchange's frames in the Exchanges view, the path marked" onClick={() => useUi.getState().showEvidence(evidence.exchangeId!, evidence.path, note)}>
        exchange #{evidence.exchangeId}
      </button>
    ) : evidence.doorRecordId !== undefined ? (
      <button type="button" className="link" data-testid="evidence-link" data-door-record={evidence.doorRecordId} title="Open this HTTP request in the Connections view" onClick={() => openDoorRecord(evidence.doorRecordId!)}>
        request #{evidence.doorRecordId}
      </button>
    ) : null;
  return (
    <span className="evidence-at">
      {target}
      {evidence.path && <code className="evidence-path" data-testid="evidence-path">{evidence.path}</code>}
    </span>
  );
}

function FindingItem({ finding, checkId }: { finding: Finding; checkId: string }) {
  return (
    <li className={`finding ${finding.verdict === 'fail' ? 'tone-error' : 'tone-warn'}`} data-testid="finding">
      <span className="finding-message">{finding.message}</span>
      {finding.evidence && <Link evidence={finding.evidence} note={`${checkId}: ${finding.verdict}`} />}
    </li>
  );
}

export function EvidenceCell({ row }: { row: CheckRow }) {
  const [all, setAll] = useState(false);
  if (row.verdict === 'not-seen') {
    return (
      <span className="muted" data-testid="not-seen-needs">
        Not seen yet: {row.check.needs}
      </span>
    );
  }
  if (row.findings.length === 0) return <span className="muted">{row.check.summary}</span>;
  const shown = all ? row.findings : row.findings.slice(0, SHOWN);
  return (
    <>
      <ul className="findings">
        {shown.map((f, i) => (
          <FindingItem key={i} finding={f} checkId={row.check.id} />
        ))}
      </ul>
      {row.findings.length > shown.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          show all {row.findings.length}
        </button>
      )}
    </>
  );
}
