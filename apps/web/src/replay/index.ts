/**
 * Edit and replay (issue 7). `ReplayPanel` is the panel itself; `ReplayHost` mounts it while open
 * (once, beside the panes) and `openReplay(id)` opens it: for an exchange, or with no id for the
 * empty composer.
 */
export { ReplayPanel } from './ReplayPanel.js';
export type { ReplayPanelProps } from './ReplayPanel.js';
export { ReplayHost } from './ReplayHost.js';
export { openReplay, useReplay } from './replay-state.js';
