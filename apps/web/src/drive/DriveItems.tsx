/**
 * What the session's server offers, each with its form: tools (arguments from inputSchema),
 * prompts (their arguments), resources (read by URI) and resource templates (variables filled
 * into the URI). A form is built fresh for each item; Send goes through the panel's state.
 */
import { useState } from 'react';
import { expandTemplate, isJsonObject, promptArgumentsSchema, templateSchema, type DriveList, type JsonObject } from '@mcpscope/protocol';
import { ArgumentsEditor } from './ArgumentsEditor.js';
import type { DriveState } from './use-drive.js';
import { useSchemaForm } from './use-schema-form.js';

export type Tab = 'tools' | 'prompts' | 'resources';

const request = (method: string, params: JsonObject): JsonObject => ({ jsonrpc: '2.0', id: 1, method, params });

function ItemForm({ drive, kind, item, from }: { drive: DriveState; kind: 'tool' | 'prompt' | 'template'; item: JsonObject; from: string | undefined }) {
  const schema = kind === 'tool' ? item.inputSchema : kind === 'prompt' ? promptArgumentsSchema(item) : templateSchema(item);
  const form = useSchemaForm(schema);
  const { value, problems } = form.read();
  const args = isJsonObject(value) ? value : {};
  const uri = kind === 'template' ? expandTemplate(String(item.uriTemplate ?? ''), args) : undefined;
  const message =
    kind === 'tool'
      ? request('tools/call', { name: item.name as string, arguments: value })
      : kind === 'prompt'
        ? request('prompts/get', { name: item.name as string, arguments: value })
        : request('resources/read', { uri: uri ?? '' });
  return (
    <div className="drive-item-form" data-testid="drive-item-form">
      {typeof item.description === 'string' && <p className="drive-help">{item.description}</p>}
      <ArgumentsEditor state={form} testId="drive-args" />
      {uri !== undefined && <div className="mono" data-testid="drive-uri">{uri}</div>}
      {problems.length > 0 && (
        <ul className="drive-problems">{problems.map((p) => <li key={p.path}><code>{p.path}</code> {p.message}</li>)}</ul>
      )}
      <div className="replay-actions">
        <button type="button" className="primary" data-testid="drive-send" disabled={drive.busy} onClick={() => void drive.send({ message, ...(from ? { from } : {}) })}>
          {drive.busy ? 'Sending…' : kind === 'tool' ? 'Call' : kind === 'prompt' ? 'Get prompt' : 'Read'}
        </button>
      </div>
    </div>
  );
}

function Picker({ items, chosen, onChoose }: { items: JsonObject[]; chosen: string | undefined; onChoose(name: string): void }) {
  return (
    <ul className="drive-picker">
      {items.map((item) => {
        const name = String(item.name ?? item.uri ?? item.uriTemplate);
        return (
          <li key={name}>
            <button type="button" className={name === chosen ? 'active' : ''} data-testid="drive-item" data-name={name} title={typeof item.description === 'string' ? item.description : undefined} onClick={() => onChoose(name)}>
              {String(item.title ?? name)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function DriveItems({ drive, tab }: { drive: DriveState; tab: Tab }) {
  const [chosen, setChosen] = useState<string>();
  const lists = drive.lists;
  if (!lists) return <div className="muted">No lists yet: list what the server offers.</div>;
  const keyOf = (i: JsonObject) => String(i.name ?? i.uri ?? i.uriTemplate);
  const entries: Array<{ list: DriveList; kind: 'tool' | 'prompt' | 'template' | 'resource' }> =
    tab === 'tools' ? [{ list: lists.tools, kind: 'tool' }] : tab === 'prompts' ? [{ list: lists.prompts, kind: 'prompt' }] : [{ list: lists.resources, kind: 'resource' }, { list: lists.resourceTemplates, kind: 'template' }];
  const all = entries.flatMap((e) => e.list.items.map((item) => ({ item, kind: e.kind, from: e.list.exchangeId })));
  const picked = all.find((e) => keyOf(e.item) === chosen);
  return (
    <div className="drive-items">
      <Picker items={all.map((e) => e.item)} chosen={chosen} onChoose={setChosen} />
      <div className="drive-form-pane">
        {!picked ? (
          <div className="muted">{all.length === 0 ? 'The server listed none.' : 'Pick one.'}</div>
        ) : picked.kind === 'resource' ? (
          <div className="drive-item-form">
            <div className="mono">{String(picked.item.uri)}</div>
            <button type="button" className="primary" data-testid="drive-send" disabled={drive.busy} onClick={() => void drive.send({ message: request('resources/read', { uri: String(picked.item.uri) }), ...(picked.from ? { from: picked.from } : {}) })}>Read</button>
          </div>
        ) : (
          <ItemForm key={`${tab}:${chosen}`} drive={drive} kind={picked.kind} item={picked.item} from={picked.from} />
        )}
      </div>
    </div>
  );
}
