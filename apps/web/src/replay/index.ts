/**
 * Edit and replay (issue 7). `ReplayPanel` is the panel itself; `ReplayHost` mounts it above the
 * layout while `useReplayTarget` names an exchange (or `''` for the empty composer).
 */
export { ReplayPanel } from './ReplayPanel.js';
export type { ReplayPanelProps } from './ReplayPanel.js';
export { ReplayHost, useReplayTarget } from './replay-host.js';
