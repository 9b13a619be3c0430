/**
 * The timeline's header row: one cell per shown column with a drag handle on its right edge
 * (the width is remembered), and a "Columns" menu to choose columns; it also says which
 * chosen columns the width left out.
 */
import { useState, type PointerEvent } from 'react';
import { COLUMN_SPECS, specOf, type ColumnId, type ColumnLayout } from './column-layout.js';
import { useColumnPrefs } from './column-prefs.js';
import { useEscapeLayer } from '../ui/escape-layers.js';

function startResize(e: PointerEvent<HTMLSpanElement>, id: ColumnId): void {
  e.preventDefault();
  e.stopPropagation();
  const cell = e.currentTarget.parentElement!;
  const startX = e.clientX;
  const startWidth = cell.getBoundingClientRect().width;
  const move = (ev: globalThis.PointerEvent) => useColumnPrefs.getState().resize(id, startWidth + ev.clientX - startX);
  const up = () => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

function ColumnMenu({ layout }: { layout: ColumnLayout }) {
  const [open, setOpen] = useState(false);
  useEscapeLayer(open, () => setOpen(false));
  const chosen = useColumnPrefs((s) => s.chosen);
  return (
    <div className="column-menu">
      <button type="button" className="ghost small" data-testid="columns-button" aria-expanded={open} title="Choose columns" onClick={() => setOpen(!open)}>
        ⋮
      </button>
      {open && (
        <div className="popover column-chooser" role="dialog" aria-label="Columns" data-testid="column-chooser">
          {COLUMN_SPECS.map((c) => (
            <label key={c.id} title={c.help}>
              <input type="checkbox" data-testid={`column-toggle-${c.id}`} checked={chosen.has(c.id) || c.id === 'method'} disabled={c.id === 'method'} onChange={() => useColumnPrefs.getState().toggle(c.id)} /> {c.label}
              {layout.squeezed.includes(c.id) && <span className="muted"> (no room)</span>}
            </label>
          ))}
          <button type="button" className="link" onClick={() => useColumnPrefs.getState().reset()}>Reset columns</button>
        </div>
      )}
    </div>
  );
}

export function ColumnHeader({ layout }: { layout: ColumnLayout }) {
  return (
    <div className="timeline-head" role="row">
      {layout.shown.map((id) => (
        <div key={id} role="columnheader" className={`cell col-${id}`} data-column={id} title={specOf(id).help}>
          {specOf(id).label}
          <span className="col-resize" data-testid={`resize-${id}`} aria-hidden="true" onPointerDown={(e) => startResize(e, id)} />
        </div>
      ))}
      <ColumnMenu layout={layout} />
    </div>
  );
}
