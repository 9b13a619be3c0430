/** A Monaco JSON editor; its module (and Monaco itself) loads only when first shown. */
import './monaco.js';
import Editor from '@monaco-editor/react';
import { useUi } from '../store/ui-store.js';

export default function JsonEditor({ value, readOnly = true, onChange }: { value: string; readOnly?: boolean; onChange?: (text: string) => void }) {
  const theme = useUi((s) => s.theme);
  return (
    <Editor
      height="100%"
      language="json"
      value={value}
      theme={theme === 'dark' ? 'vs-dark' : 'vs'}
      options={{ readOnly, minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, wordWrap: 'on' }}
      onChange={(text) => onChange?.(text ?? '')}
    />
  );
}
