/**
 * Draws a form model (protocol's formModel) as controls and edits its form value: text and
 * number inputs, checkboxes, selects for choices, checkbox groups for multi-selects, lists with
 * add/remove, nested fieldsets, and a JSON box for what the model leaves to JSON. Required fields
 * carry a mark; an optional field is sent only when included, and editing it includes it.
 * Descriptions are the help under each field. Test ids follow the field's path (`drive-field-a.b`).
 */
import { initialForm, isFormObject, type FormField, type FormNode, type FormValue } from '@mcpscope/protocol';

interface ControlProps {
  node: FormNode;
  value: FormValue;
  onChange(value: FormValue): void;
  path: string;
  label: string;
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date' };

function Control({ node, value, onChange, path, label }: ControlProps) {
  const testId = `drive-field-${path}`;
  switch (node.kind) {
    case 'text':
      return <input type={INPUT_TYPES[node.format ?? ''] ?? 'text'} aria-label={label} data-testid={testId} value={String(value)} placeholder={node.format} onChange={(e) => onChange(e.target.value)} />;
    case 'number':
      return <input type="text" inputMode="decimal" aria-label={label} data-testid={testId} value={String(value)} placeholder={node.integer ? 'integer' : 'number'} onChange={(e) => onChange(e.target.value)} />;
    case 'boolean':
      return <input type="checkbox" aria-label={label} data-testid={testId} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
    case 'choice':
      return (
        <select aria-label={label} data-testid={testId} value={String(value)} onChange={(e) => onChange(Number(e.target.value))}>
          {value === -1 && <option value="-1">—</option>}
          {node.options.map((o, i) => <option key={i} value={i}>{o.label}</option>)}
        </select>
      );
    case 'multi': {
      const picked = new Set(Array.isArray(value) ? (value as number[]) : []);
      return (
        <span className="drive-multi" data-testid={testId}>
          {node.options.map((o, i) => (
            <label key={i}>
              <input type="checkbox" checked={picked.has(i)} onChange={(e) => onChange(node.options.map((_, j) => j).filter((j) => (j === i ? e.target.checked : picked.has(j))))} /> {o.label}
            </label>
          ))}
        </span>
      );
    }
    case 'json':
      return <textarea aria-label={label} data-testid={testId} spellCheck={false} value={String(value)} onChange={(e) => onChange(e.target.value)} title={`Edited as JSON: ${node.why}`} />;
    case 'array': {
      const items = Array.isArray(value) ? (value as FormValue[]) : [];
      return (
        <div className="drive-array" data-testid={testId}>
          {items.map((item, i) => (
            <div key={i} className="drive-array-item">
              <Control node={node.item} value={item} path={`${path}.${i}`} label={`${label} ${i + 1}`} onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))} />
              <button type="button" className="small" aria-label={`Remove item ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>−</button>
            </div>
          ))}
          <button type="button" className="small" data-testid={`${testId}-add`} onClick={() => onChange([...items, initialForm(node.item)])}>+ add</button>
        </div>
      );
    }
    case 'object':
      return <ObjectFields node={node} value={value} onChange={onChange} path={path} />;
  }
}

function ObjectFields({ node, value, onChange, path }: { node: Extract<FormNode, { kind: 'object' }>; value: FormValue; onChange(v: FormValue): void; path: string }) {
  const form = isFormObject(value) ? value : { fields: {} };
  const set = (key: string, entry: FormField) => onChange({ ...form, fields: { ...form.fields, [key]: entry } });
  if (node.fields.length === 0) return <div className="muted">No arguments.</div>;
  return (
    <div className="drive-fields">
      {node.fields.map((field) => {
        const entry = form.fields[field.key] ?? { on: field.required, value: initialForm(field.node) };
        const label = field.node.title ?? field.key;
        const fieldPath = path ? `${path}.${field.key}` : field.key;
        return (
          <div key={field.key} className={`drive-field${entry.on || field.required ? '' : ' drive-field-off'}`}>
            <div className="drive-field-label">
              {!field.required && (
                <input type="checkbox" title="Send this field" aria-label={`Include ${label}`} data-testid={`drive-include-${fieldPath}`} checked={entry.on} onChange={(e) => set(field.key, { ...entry, on: e.target.checked })} />
              )}
              <span>{label}</span>
              {field.required && <span className="drive-required" title="Required">*</span>}
              {field.node.title !== undefined && <code className="muted">{field.key}</code>}
            </div>
            <Control node={field.node} value={entry.value} path={fieldPath} label={label} onChange={(v) => set(field.key, { on: true, value: v })} />
            {field.node.description && <small className="drive-help">{field.node.description}</small>}
          </div>
        );
      })}
    </div>
  );
}

/** The whole form of a schema: an object's fields at the top. */
export function SchemaForm({ node, value, onChange }: { node: FormNode; value: FormValue; onChange(v: FormValue): void }) {
  return <Control node={node} value={value} onChange={onChange} path="" label="arguments" />;
}
