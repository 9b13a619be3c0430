/**
 * The live checklist of a host connecting through a tunnel, for the first-run page: tunnel
 * reached → Host accepted → discovery → registration and authorization (when the server asks for
 * OAuth) → initialize → tools/list → first call. Each item is done, failed (with the reason), waiting or
 * not needed, read from what the dashboard already holds: the door records and the connection
 * flow the protocol package builds from them (its steps and their colours), never guessed.
 */
import type { ConnectionFlow, DoorRecord, FlowStep } from '@mcpscope/protocol';
import type { RefusedHostView } from './refused-hosts.js';
import { isTunnelHost } from '../lib/tunnel-host.js';

export type ChecklistState = 'done' | 'failed' | 'waiting' | 'skipped';

export interface ChecklistItem {
  key: 'tunnel' | 'host' | 'discovery' | 'authorization' | 'initialize' | 'tools-list' | 'first-call';
  label: string;
  state: ChecklistState;
  reason: string;
}

/** The flow of the host connecting: the newest one that came through a tunnel, else the newest. */
export function connectingFlow(flows: readonly ConnectionFlow[], records: ReadonlyMap<number, DoorRecord>): ConnectionFlow | undefined {
  const viaTunnel = (f: ConnectionFlow) => f.steps.some((s) => s.records.some((id) => isTunnelHost(records.get(id)?.host)));
  return flows.find(viaTunnel) ?? flows[0];
}

export function connectionChecklist(records: readonly DoorRecord[], flow: ConnectionFlow | undefined, refused: readonly RefusedHostView[]): ChecklistItem[] {
  const items: ChecklistItem[] = [];
  const tunnelled = records.filter((r) => isTunnelHost(r.host));
  const local = records.some((r) => !isTunnelHost(r.host) && r.host !== undefined);
  const through = tunnelled.find((r) => r.answer !== 'refused');
  const host = tunnelled[0]?.host;
  if (tunnelled.length > 0) {
    items.push({ key: 'tunnel', label: 'Tunnel reached the tap', state: 'done', reason: `Requests for Host ${host} arrived from ${tunnelled[0]!.peer.address}.` });
  } else if (local) {
    items.push({ key: 'tunnel', label: 'Tunnel reached the tap', state: 'skipped', reason: 'A local client: no tunnel in between.' });
  } else {
    items.push({ key: 'tunnel', label: 'Tunnel reached the tap', state: 'waiting', reason: 'Nothing has arrived yet: paste the URL into the connector and connect.' });
  }
  const refusedNow = refused[0];
  if (refusedNow) {
    items.push({ key: 'host', label: 'Host accepted', state: 'failed', reason: `Host ${refusedNow.host} was refused: restart with ${refusedNow.fix}, or accept it for this run above.` });
  } else if (through) {
    items.push({ key: 'host', label: 'Host accepted', state: 'done', reason: `The tap takes Host ${through.host}.` });
  } else {
    items.push({ key: 'host', label: 'Host accepted', state: tunnelled.length === 0 && local ? 'skipped' : 'waiting', reason: tunnelled.length === 0 && local ? 'A loopback Host: always accepted.' : 'No request has got past the Host check yet.' });
  }
  const steps = flow?.steps ?? [];
  const connected = steps.some((s) => s.check === 'initialize');
  const oauth = steps.some((s) => s.phase === 'registration' || s.phase === 'authorization' || s.phase === 'token' || s.check === 'challenge');
  items.push(phaseItem('discovery', 'Discovery', steps.filter((s) => s.phase === 'discovery'), connected && !oauth ? 'The server asked for no authorization: nothing to discover.' : undefined));
  if (oauth) {
    const auth = steps.filter((s) => s.phase === 'registration' || s.phase === 'authorization' || s.phase === 'token');
    const token = auth.find((s) => s.check === 'token' && s.colour !== 'red');
    const red = auth.find((s) => s.colour === 'red');
    items.push(
      red ? { key: 'authorization', label: 'Registration and authorization', state: 'failed', reason: `${red.title}: ${red.reason}` }
      : token ? { key: 'authorization', label: 'Registration and authorization', state: 'done', reason: token.reason }
      : { key: 'authorization', label: 'Registration and authorization', state: 'waiting', reason: auth.length > 0 ? `So far: ${auth[auth.length - 1]!.title}.` : 'The server asks for OAuth; the client has not registered yet.' },
    );
  }
  const wrongPath = steps.find((s) => s.check === 'not-mcp-endpoint');
  const init = steps.find((s) => s.check === 'initialize');
  const initFailed = steps.find((s) => s.check === 'initialize-failed' || s.check === 'mcp-html' || s.check === 'mcp-redirect' || s.check === 'upstream-unreachable');
  items.push(
    init ? { key: 'initialize', label: 'initialize', state: 'done', reason: init.reason }
    : wrongPath ? { key: 'initialize', label: 'initialize', state: 'failed', reason: wrongPath.reason }
    : initFailed ? { key: 'initialize', label: 'initialize', state: 'failed', reason: `${initFailed.title}: ${initFailed.reason}` }
    : { key: 'initialize', label: 'initialize', state: 'waiting', reason: 'No initialize yet.' },
  );
  const list = steps.find((s) => s.check === 'tools-list');
  items.push(list ? { key: 'tools-list', label: 'tools/list', state: list.colour === 'red' ? 'failed' : 'done', reason: list.reason } : { key: 'tools-list', label: 'tools/list', state: 'waiting', reason: 'The client has not listed the tools yet.' });
  const calls = steps.find((s) => s.check === 'mcp-calls');
  items.push(calls ? { key: 'first-call', label: 'First call', state: 'done', reason: calls.reason } : { key: 'first-call', label: 'First call', state: 'waiting', reason: 'No call yet: ask the host for something a tool does.' });
  return items;
}

function phaseItem(key: 'discovery', label: string, steps: readonly FlowStep[], notNeeded: string | undefined): ChecklistItem {
  const red = steps.find((s) => s.colour === 'red');
  if (red) return { key, label, state: 'failed', reason: `${red.title}: ${red.reason}` };
  const good = steps.filter((s) => s.colour === 'green' || s.colour === 'amber');
  if (good.length > 0) return { key, label, state: 'done', reason: good[good.length - 1]!.reason };
  if (notNeeded) return { key, label, state: 'skipped', reason: notNeeded };
  return { key, label, state: 'waiting', reason: 'No metadata fetched yet (a server without OAuth needs none).' };
}
