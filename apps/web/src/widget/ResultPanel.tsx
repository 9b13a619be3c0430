/**
 * One result, three audiences (the lesson mcpscope grew from: "the model uses the text from
 * content, your widget renders the data from structuredContent"): what the model sees
 * (`content`), what both see (`structuredContent`), what only the widget sees (`_meta`).
 */
import type { JsonObject } from '@mcpscope/protocol';
import { JsonTree } from '../ui/JsonTree.js';

function Column({ title, hint, value, testid }: { title: string; hint: string; value: unknown; testid: string }) {
  return (
    <div className="audience" data-testid={testid}>
      <h5>
        {title} <span className="muted">{hint}</span>
      </h5>
      {value === undefined ? <p className="muted">(none)</p> : <JsonTree value={value} />}
    </div>
  );
}

export function ResultPanel({ result, widgetState }: { result: JsonObject | undefined; widgetState: unknown }) {
  return (
    <section className="widget-audiences" data-testid="widget-audiences">
      <h4>Who sees what</h4>
      {!result ? (
        <p className="muted">No result yet (the call is pending or failed).</p>
      ) : (
        <div className="audience-grid">
          <Column title="content" hint="the model" value={result.content} testid="audience-model" />
          <Column title="structuredContent" hint="the model and the widget" value={result.structuredContent} testid="audience-both" />
          <Column title="_meta" hint="the widget only" value={result._meta} testid="audience-widget" />
        </div>
      )}
      {widgetState !== undefined && (
        <div className="audience" data-testid="widget-state">
          <h5>
            widget state <span className="muted">what the widget last stored (setWidgetState / ui/update-model-context)</span>
          </h5>
          <JsonTree value={widgetState} />
        </div>
      )}
    </section>
  );
}
