/**
 * The Readiness view's filters (a host, a verdict), kept while the user follows an evidence link
 * to the Exchanges or Connections view and comes back.
 */
import { create } from 'zustand';
import type { HostId } from '@mcpscope/protocol';
import type { VerdictFilter } from './readiness-model.js';

export interface ReadinessFilters {
  host?: HostId;
  verdict: VerdictFilter;
  chooseHost(host: HostId | undefined): void;
  chooseVerdict(verdict: VerdictFilter): void;
}

export const useReadinessFilters = create<ReadinessFilters>((set) => ({
  verdict: 'all',
  chooseHost: (host) => set(host === undefined ? { host: undefined } : { host }),
  chooseVerdict: (verdict) => set({ verdict }),
}));
