/** Edit and replay (issue 7): the panel the detail pane opens for a client→server message. */
export { ReplayPanel } from './ReplayPanel.js';
export type { ReplayPanelProps } from './ReplayPanel.js';
