/**
 * The message editor: the whole JSON-RPC message in Monaco, validated as you type against the
 * method's params schema and, for `tools/call`, the tool's own inputSchema (completion from the
 * same schema). Loaded lazily with Monaco; Ctrl/Cmd+Enter sends.
 */
import '../monaco.js';
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

const theme = () => (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs');

export default function MessageEditor({ value, onChange, tools, onSubmit }: MessageEditorProps) {
  const path = `inmemory://mcpscope/replay/${useId().replace(/[^a-z0-9]/gi, '')}.json`;
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
      theme={theme()}
      onMount={onMount}
      options={{ minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, wordWrap: 'on', tabSize: 2, fixedOverflowWidgets: true }}
      onChange={(text) => onChange(text ?? '')}
    />
  );
}
