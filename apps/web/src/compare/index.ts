/** "Diff any two exchanges" (issue 23): picking rows, the bar that compares them, the panel. */
export { useCompare } from './compare-store.js';
export { CompareBar } from './CompareBar.js';
export { CompareHost } from './compare-host.js';
