/** The dashboard's export and import UI. */
export { ExportMenu } from './ExportMenu.js';
export type { ExportMenuProps } from './ExportMenu.js';
export { CopyAsCurl } from './CopyAsCurl.js';
export { EvidenceButton } from './EvidenceButton.js';
export type { EvidenceButtonProps } from './EvidenceButton.js';
export { SaveAsTestButton } from './SaveAsTest.js';
