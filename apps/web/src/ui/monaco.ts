/**
 * Monaco, bundled for offline use (toolchain.md, gotcha 4): the editor core plus the JSON
 * language, workers built by Vite, and @monaco-editor/react told to use this copy instead of
 * fetching one from a CDN. Imported only by lazily loaded editor components.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/features/json/register';
import { loader } from '@monaco-editor/react';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

self.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};
loader.config({ monaco });

export { monaco };
