/** Original and replayed response side by side, in Monaco's diff editor (loaded lazily). */
import '../monaco.js';
import { DiffEditor } from '@monaco-editor/react';

export default function ResponseDiff({ original, modified }: { original: string; modified: string }) {
  return (
    <DiffEditor
      height="100%"
      language="json"
      original={original}
      modified={modified}
      theme={window.matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs'}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, wordWrap: 'on' }}
    />
  );
}
