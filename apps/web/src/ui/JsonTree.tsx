/**
 * A collapsible JSON tree. Everything renders as text (captured content is never interpreted).
 * Nodes carry their JSON path, and nodes named by a diagnostic or a schema violation are marked
 * and start expanded. Deep levels and long arrays start collapsed, so a 5 MB body stays usable.
 */
import { useState, type ReactNode } from 'react';
import { childPath, isWithin } from '@mcpscope/protocol';

export interface TreeMark {
  path: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

const OPEN_DEPTH = 3;
const CHILD_PAGE = 200;
/** Characters of a string shown before "show all": a 2 MB string laid out whole stalls the page for seconds. */
const STRING_PREVIEW = 2_000;

function LongString({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  if (all || text.length <= STRING_PREVIEW) return <span className="j-str">{text}</span>;
  return (
    <span className="j-str">
      {text.slice(0, STRING_PREVIEW)}
      <button type="button" className="link j-more" onClick={() => setAll(true)}>
        … {(text.length - STRING_PREVIEW).toLocaleString()} more characters
      </button>
    </span>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="j-null">null</span>;
  switch (typeof value) {
    case 'string':
      return <LongString text={JSON.stringify(value)} />;
    case 'number':
      return <span className="j-num">{String(value)}</span>;
    case 'boolean':
      return <span className="j-bool">{String(value)}</span>;
    default:
      return <span>{String(value)}</span>;
  }
}

function Node({ name, value, path, depth, marks }: { name: ReactNode; value: unknown; path: string; depth: number; marks: readonly TreeMark[] }) {
  const own = marks.filter((m) => m.path === path);
  const marked = marks.some((m) => isWithin(m.path, path));
  const [open, setOpen] = useState(depth < OPEN_DEPTH || marked);
  const [shown, setShown] = useState(CHILD_PAGE);
  const isObject = value !== null && typeof value === 'object';
  const markClass = own.length > 0 ? ` mark-${own[0]!.severity}` : '';
  const markNote = own.map((m) => (
    <span key={m.message} className={`mark-note mark-${m.severity}`}>
      ◀ {m.message}
    </span>
  ));
  if (!isObject) {
    return (
      <div className={`j-row${markClass}`} data-path={path}>
        <span className="j-toggle-space" />
        {name}
        <Scalar value={value} />
        {markNote}
      </div>
    );
  }
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value as object);
  const [openBrace, closeBrace] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return (
    <div className="j-node" data-path={path}>
      <div className={`j-row${markClass}`}>
        <button type="button" className="j-toggle" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'}>
          {open ? '▾' : '▸'}
        </button>
        {name}
        <span className="j-punct">{openBrace}</span>
        {!open && (
          <span className="j-summary" onClick={() => setOpen(true)}>
            {entries.length} {Array.isArray(value) ? 'items' : 'keys'} {closeBrace}
          </span>
        )}
        {markNote}
      </div>
      {open && (
        <div className="j-children">
          {entries.slice(0, shown).map(([key, child]) => (
            <Node
              key={key}
              name={typeof key === 'number' ? <span className="j-index">{key}: </span> : <span className="j-key">{JSON.stringify(key)}: </span>}
              value={child}
              path={childPath(path, key)}
              depth={depth + 1}
              marks={marks}
            />
          ))}
          {entries.length > shown && (
            <button type="button" className="link" onClick={() => setShown(shown + CHILD_PAGE * 5)}>
              show {Math.min(CHILD_PAGE * 5, entries.length - shown)} more of {entries.length - shown} remaining
            </button>
          )}
          <div className="j-row">
            <span className="j-toggle-space" />
            <span className="j-punct">{closeBrace}</span>
          </div>
        </div>
      )}
    </div>
  );
}

export function JsonTree({ value, marks = [] }: { value: unknown; marks?: readonly TreeMark[] }) {
  return (
    <div className="json-tree" data-testid="json-tree">
      <Node name={null} value={value} path="$" depth={0} marks={marks} />
    </div>
  );
}
