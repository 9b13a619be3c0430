/**
 * One form's state: its model from the schema, the form value, and the JSON view of the same
 * arguments (for what a form cannot express, or for pasting). Switching back from JSON refills
 * the form when the JSON fits it, and stays in JSON (saying why) when it does not.
 */
import { useMemo, useState } from 'react';
import { formModel, fromForm, initialForm, toForm, type FormProblem, type FormValue, type JsonValue } from '@mcpscope/protocol';

export interface SchemaFormState {
  model: ReturnType<typeof formModel>;
  form: FormValue;
  setForm(form: FormValue): void;
  /** The JSON text while editing as JSON; undefined in form view. */
  json?: string;
  setJson(text: string): void;
  jsonError?: string;
  toggleJson(): void;
  /** The arguments as they would be sent, and what could not be read as its field's type. */
  read(): { value: JsonValue; problems: FormProblem[] };
}

export function useSchemaForm(schema: unknown, start?: JsonValue): SchemaFormState {
  const model = useMemo(() => formModel(schema), [schema]);
  const [form, setForm] = useState<FormValue>(() => (start !== undefined ? toForm(model, start) : undefined) ?? initialForm(model));
  const [json, setJson] = useState<string | undefined>();
  const [jsonError, setJsonError] = useState<string>();

  const read = (): { value: JsonValue; problems: FormProblem[] } => {
    if (json === undefined) return fromForm(model, form);
    try {
      return { value: JSON.parse(json) as JsonValue, problems: [] };
    } catch (err) {
      return { value: json, problems: [{ path: '$', message: `not JSON (${(err as Error).message}): sent as text` }] };
    }
  };

  const toggleJson = () => {
    if (json === undefined) {
      setJson(JSON.stringify(fromForm(model, form).value, null, 2));
      setJsonError(undefined);
      return;
    }
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(json) as JsonValue;
    } catch (err) {
      return setJsonError(`Not JSON: ${(err as Error).message}`);
    }
    const filled = toForm(model, parsed);
    if (filled === undefined) return setJsonError('These arguments do not fit the form (a type or a key it does not have); keep editing them as JSON.');
    setForm(filled);
    setJson(undefined);
    setJsonError(undefined);
  };

  return { model, form, setForm, ...(json !== undefined ? { json } : {}), setJson, ...(jsonError ? { jsonError } : {}), toggleJson, read };
}
