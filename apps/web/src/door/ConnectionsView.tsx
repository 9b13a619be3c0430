/**
 * The Connections view: every client that knocked at the tap's door, with the story of its
 * connection (probes, discovery, registration, authorization, token, MCP) checked step by step,
 * or every HTTP request as a table. The filter bar filters the requests (and so which clients are
 * listed) in the same language as the timeline.
 */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useUi } from '../store/ui-store.js';
import { Chip, FilterBar } from '../filter/FilterBar.js';
import { ClientList } from './ClientList.js';
import { FlowStory } from './FlowStory.js';
import { RecordDetail } from './RecordDetail.js';
import { RequestTable } from './RequestTable.js';
import { WindowedRequests, useOpenedRecord } from './WindowedRequests.js';
import { buildDoorFilter } from './door-filter.js';
import { doorReads, useDoor } from '../store/door-store.js';
import { noWindow } from '../store/list-window.js';
import { useFlows } from '../store/use-flows.js';
import './door.css';

export function ConnectionsView() {
  const text = useUi((s) => s.filter);
  const tick = useDoor((s) => s.tick);
  const records = useDoor((s) => s.records);
  const loaded = useDoor((s) => s.loaded);
  const chosen = useDoor((s) => s.client);
  const windowed = useDoor((s) => s.windowed);
  const doorTotal = useDoor((s) => s.total);
  const filter = useMemo(() => buildDoorFilter(text), [text]);
  const all = useMemo(() => [...records.values()].sort((a, b) => a.id - b.id), [records, tick]);
  const kept = useMemo(() => all.filter(filter.predicate), [all, filter]);
  const flows = useFlows();
  const keptIds = useMemo(() => new Set(kept.map((r) => r.id)), [kept]);
  const listed = filter.description ? flows.filter((f) => f.steps.some((s) => s.records.some((id) => keptIds.has(id)))) : flows;
  // Nothing chosen yet: the newest client's story, or the table when there is no client.
  const current = chosen ?? listed[0]?.clientKey ?? '';
  const flow = listed.find((f) => f.clientKey === current) ?? flows.find((f) => f.clientKey === current);
  const record = useOpenedRecord(records);
  const reads = windowed ? doorReads() : undefined;
  const shownTotal = useStore(reads?.window.store ?? noWindow, (s) => s.total);
  const counts = reads ? { shown: filter.applied ? shownTotal : doorTotal, total: doorTotal } : { shown: kept.length, total: all.length };

  return (
    <div className="connections" data-testid="connections">
      <FilterBar
        compiled={filter}
        counts={{ ...counts, noun: 'HTTP requests' }}
        placeholder="Filter: http.path:/.well-known/* http.status:4xx kind:probe …   ( / to focus )"
        chips={
          <>
            <Chip term="http.status>399" label="4xx/5xx" title="Requests the client got an error status for" />
            <Chip term="kind:probe" label="probes" title="Browser-like GETs, HEAD, crawlers, favicon" />
            <Chip term="http.path:/.well-known/*" label="discovery" title="Metadata documents" />
          </>
        }
      />
      <div className={`door-layout${record ? ' with-detail' : ''}`}>
        <ClientList flows={listed} chosen={current} total={counts.total} shown={counts.shown} />
        <div className="door-main">
          {!loaded ? (
            <p className="muted hint">Loading the requests seen at the door…</p>
          ) : (current === '' || !flow) && reads ? (
            <WindowedRequests reads={reads} filter={filter.applied} />
          ) : current === '' || !flow ? (
            <RequestTable count={kept.length} rowAt={(position) => kept[position]} />
          ) : (
            <FlowStory flow={flow} />
          )}
        </div>
        {record && <RecordDetail record={record} />}
      </div>
    </div>
  );
}
