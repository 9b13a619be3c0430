/**
 * Reading what the door recorded through the API, as the dashboard does, and telling it as
 * connection flows with the same protocol code the dashboard runs.
 */
import { buildConnectionFlows, type ConnectionFlow, type DoorRecord, type RequestsPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../../src/compose/start-mcpscope.js';
import { settled } from '../helpers.js';
import { apiGet } from './api.js';

/** Every door record, page by page through GET /api/requests. */
export async function allRequests(app: Mcpscope, filter?: string): Promise<DoorRecord[]> {
  await settled(app);
  const out: DoorRecord[] = [];
  let after = 0;
  for (;;) {
    const page = await apiGet<RequestsPage>(app, `/api/requests?after=${after}&limit=5000${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`);
    out.push(...page.requests);
    if (page.nextAfter === undefined) return out;
    after = page.nextAfter;
  }
}

export async function flows(app: Mcpscope): Promise<ConnectionFlow[]> {
  const records = await allRequests(app);
  const sessions = new Map(app.store.sessions().map((s) => [s.sessionKey, s]));
  return buildConnectionFlows(records, { exchange: (id) => app.store.exchange(id), session: (key) => sessions.get(key) });
}

/** `colour:check` of each step, for compact assertions. */
export const stepChecks = (flow: ConnectionFlow) => flow.steps.map((s) => `${s.colour}:${s.check}`);
