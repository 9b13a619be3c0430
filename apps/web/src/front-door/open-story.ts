/**
 * Opens the Connections view on the story of the client that sent a door record (that record
 * open beside it): from an Exchanges row whose answer was HTTP, not JSON-RPC (an OAuth challenge),
 * the story says what the client does next and whether the server's discovery holds up.
 */
import { buildConnectionFlows } from '@mcpscope/protocol';
import { useDoor } from '../store/door-store.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';

export function openStoryOf(requestId: number): void {
  const { index, sessions } = useLive.getState();
  const { records, publicOrigin, mcpPath } = useDoor.getState();
  const facts = { exchange: (id: string) => index.get(id), session: (key: string) => sessions.get(key), ...(publicOrigin ? { publicOrigin } : {}), ...(mcpPath ? { mcpPath } : {}) };
  const flow = buildConnectionFlows([...records.values()], facts).find((f) => f.steps.some((s) => s.records.includes(requestId)));
  useUi.getState().setMode('connections');
  // A record no story holds yet (not loaded): every request, that one open.
  useDoor.getState().chooseClient(flow?.clientKey ?? '');
  useDoor.getState().openRecord(requestId);
}
