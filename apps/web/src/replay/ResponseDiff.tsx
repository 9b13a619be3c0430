/** Original and replayed response side by side, in Monaco's diff editor (loaded lazily). */
import '../ui/monaco.js';
import { useUi } from '../store/ui-store.js';
import { DiffEditor } from '@monaco-editor/react';
import { WRAP_LIMIT } from './MessageEditor.js';

export default function ResponseDiff({ original, modified }: { original: string; modified: string }) {
  const dark = useUi((s) => s.theme) === 'dark';
  return (
    <DiffEditor
      height="100%"
      language="json"
      original={original}
      modified={modified}
      theme={dark ? 'vs-dark' : 'vs'}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: true, useInlineViewWhenSpaceIsLimited: false, minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, wordWrap: original.length + modified.length > WRAP_LIMIT ? 'off' : 'on' }}
    />
  );
}
