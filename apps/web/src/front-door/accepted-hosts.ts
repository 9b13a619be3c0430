/**
 * The Host names the user accepted for this run from the dashboard (the proxy's
 * `GET /api/tap/hosts`), so the refused-Host banner stops offering them.
 */
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

interface AcceptedHostsState {
  accepted: ReadonlySet<string>;
  set(hosts: readonly string[]): void;
}

export const useAcceptedHosts = create<AcceptedHostsState>((set) => ({
  accepted: new Set(),
  set: (hosts) => set({ accepted: new Set(hosts) }),
}));

export async function loadAcceptedHosts(api: ApiClient): Promise<void> {
  const { accepted } = await api.tapHosts();
  useAcceptedHosts.getState().set(accepted);
}

/** The user's click: accepts `host` for the run and returns once the tap takes it. */
export async function acceptHost(api: ApiClient, host: string): Promise<void> {
  const { accepted } = await api.acceptTapHost(host);
  useAcceptedHosts.getState().set(accepted);
}
