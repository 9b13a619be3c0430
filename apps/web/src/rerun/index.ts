/** "Re-run failed calls" (issue 17): the top-bar button and the panel's host. */
export { RerunButton, RerunHost } from './rerun-host.js';
