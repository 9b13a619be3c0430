/** A schema's form, or the same arguments as JSON, with a switch between the two. */
import { SchemaForm } from './SchemaForm.js';
import type { SchemaFormState } from './use-schema-form.js';

export function ArgumentsEditor({ state, testId }: { state: SchemaFormState; testId: string }) {
  return (
    <div className="drive-arguments" data-testid={testId}>
      <div className="drive-arguments-head">
        <button type="button" className="small" data-testid={`${testId}-json-toggle`} onClick={state.toggleJson}>
          {state.json === undefined ? 'Edit as JSON' : 'Back to the form'}
        </button>
        {state.jsonError && <span className="replay-error" role="alert">{state.jsonError}</span>}
      </div>
      {state.json === undefined ? (
        <SchemaForm node={state.model} value={state.form} onChange={state.setForm} />
      ) : (
        <textarea className="drive-json" data-testid={`${testId}-json`} spellCheck={false} value={state.json} onChange={(e) => state.setJson(e.target.value)} />
      )}
    </div>
  );
}
