/**
 * The message editor: the whole JSON-RPC message in Monaco, validated as you type against the
 * method's params schema and, for `tools/call`, the tool's own inputSchema (completion from the
 * same schema). Loaded lazily with Monaco; Ctrl/Cmd+Enter sends.
 */
import '../ui/monaco.js';
import { useUi } from '../store/ui-store.js';
import { useEffect, useId, useRef } from 'react';
import Editor, { type OnMount } from '@monaco-editor/react';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import { messageSchema, type ToolInfo } from './message-schema.js';

export interface MessageEditorProps {
  value: string;
  onChange(text: string): void;
  tools: readonly ToolInfo[];
  onSubmit(): void;
}

/**
 * Past this many characters lines are not wrapped: wrapping a 2 MB string into tens of thousands
 * of visual lines stalls Monaco for many seconds, while an unwrapped long line stays cheap.
 */
export const WRAP_LIMIT = 200_000;

export default function MessageEditor({ value, onChange, tools, onSubmit }: MessageEditorProps) {
  const path = `inmemory://mcpscope/replay/${useId().replace(/[^a-z0-9]/gi, '')}.json`;
  const dark = useUi((s) => s.theme) === 'dark';
  const submit = useRef(onSubmit);
  submit.current = onSubmit;

  useEffect(() => {
    const schemas = (jsonDefaults.diagnosticsOptions.schemas ?? []).filter((s) => !s.fileMatch?.includes(path));
    schemas.push({ uri: `${path}.schema`, fileMatch: [path], schema: messageSchema(tools) });
    // Arguments that break the tool's schema are errors, not the default's mere warnings.
    jsonDefaults.setDiagnosticsOptions({ validate: true, allowComments: false, enableSchemaRequest: false, schemaValidation: 'error', schemas });
  }, [path, tools]);

  const onMount: OnMount = (editor, monaco) => {
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => submit.current());
    editor.focus();
  };

  return (
    <Editor
      height="100%"
      language="json"
      path={path}
      value={value}
      theme={dark ? 'vs-dark' : 'vs'}
      onMount={onMount}
      options={{ minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, wordWrap: value.length > WRAP_LIMIT ? 'off' : 'on', tabSize: 2, fixedOverflowWidgets: true }}
      onChange={(text) => onChange(text ?? '')}
    />
  );
}
