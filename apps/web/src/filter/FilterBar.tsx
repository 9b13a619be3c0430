/**
 * The filter bar: the filter language with autocomplete, the live "this filter means …"
 * sentence, parse errors marked at their position, one-click chips and the operator help.
 * `/` focuses it from anywhere; Esc leaves it.
 */
import { syntaxHint } from './syntax-hint.js';
import { SessionScope, useSessionScopeLabel } from './SessionScope.js';
import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLive } from '../store/live-store.js';
import { useExchangeTotal } from '../store/exchange-total.js';
import { useWindow } from '../store/window-store.js';
import { useUi } from '../store/ui-store.js';
import { capturedValues } from './captured-values.js';
import { FILTER_OPERATORS, type ViewFilter } from './filter-lang.js';
import { SearchNote } from './SearchNote.js';
import { hasTerm, suggest, toggleTerm, tokenAt, type Suggestion } from './suggest.js';

export const FILTER_INPUT_ID = 'filter-input';

export function Chip({ term, label, title }: { term: string; label: string; title: string }) {
  const text = useUi((s) => s.filter);
  const on = hasTerm(text, term);
  return (
    <button type="button" className={`chip${on ? ' on' : ''}`} aria-pressed={on} title={title} onClick={() => useUi.getState().setFilter(toggleTerm(text, term))}>
      {label}
    </button>
  );
}

function SelectionChips() {
  const selected = useUi((s) => s.selected);
  const ex = useLive((s) => (selected ? s.index.get(selected) : undefined));
  if (!ex) return null;
  return (
    <>
      <Chip term={`session:${ex.sessionKey.slice(0, 8)}`} label="this session" title={`Only session ${ex.sessionKey}`} />
      {ex.method === 'tools/call' && ex.target && <Chip term={`tool:${/^[^\s()!|&"]+$/.test(ex.target) ? ex.target : JSON.stringify(ex.target)}`} label={`tool ${ex.target}`} title={`Only calls of ${ex.target}`} />}
    </>
  );
}

function Help({ onClose }: { onClose: () => void }) {
  return (
    <div className="popover filter-help" role="dialog" aria-label="Filter syntax">
      <header>
        <strong>Filter syntax</strong>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close help">✕</button>
      </header>
      <p className="muted">Terms side by side (or joined by &) must all match; | means or; ! negates; parentheses group. Bare words search method, target and bodies.</p>
      <table>
        <tbody>
          {FILTER_OPERATORS.map((op) => (
            <tr key={op.syntax}>
              <th scope="row"><code>{op.syntax}</code></th>
              <td>{op.help}</td>
              <td><code>{op.example}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface FilterBarProps {
  compiled: Pick<ViewFilter, 'description' | 'error' | 'serverText'>;
  /** What the status line counts; the exchange view's by default. */
  counts?: { shown: number; total: number; noun: string };
  /** Quick filters; the exchange view's by default. */
  chips?: ReactNode;
  placeholder?: string;
}

export function FilterBar({ compiled, counts, chips, placeholder }: FilterBarProps) {
  const text = useUi((s) => s.filter);
  const input = useRef<HTMLInputElement>(null);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  /** The highlighted suggestion; -1 until the user moves into the list (Enter then applies the text). */
  const [active, setActive] = useState(-1);
  const [help, setHelp] = useState(false);
  const scope = useSessionScopeLabel();
  const hint = useMemo(() => syntaxHint(text), [text]);
  const windowed = useWindow((s) => s.windowed);
  const windowShown = useWindow((s) => s.total);
  const localShown = useLive((s) => s.view.size);
  const liveShown = windowed ? windowShown : localShown;
  const liveTotal = useExchangeTotal();
  const { shown: viewSize, total, noun } = counts ?? { shown: liveShown, total: liveTotal, noun: 'exchanges' };
  const values = useMemo(() => ({ current: undefined as ReturnType<typeof capturedValues> | undefined }), []);

  const refresh = (value: string, caret: number) => {
    const state = useLive.getState();
    values.current ??= capturedValues(state.index, state.sessions, state.conversations);
    setSuggestions(suggest(value, caret, FILTER_OPERATORS, values.current));
    setActive(-1);
  };

  const accept = (s: Suggestion) => {
    const el = input.current!;
    const { start, end } = tokenAt(text, el.selectionStart ?? text.length);
    const done = !s.insert.endsWith(':') && !s.insert.endsWith('>') && !s.insert.endsWith('<');
    const next = text.slice(0, start) + s.insert + (done && text[end] !== ' ' ? ' ' : '') + text.slice(end);
    useUi.getState().setFilter(next);
    const caret = start + s.insert.length + (done ? 1 : 0);
    requestAnimationFrame(() => {
      el.setSelectionRange(caret, caret);
      // A finished term closes the list (so the result is visible); a field name asks for its value.
      if (done) setSuggestions([]);
      else refresh(next, caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      if (suggestions.length > 0) setSuggestions([]);
      else input.current?.blur();
      e.stopPropagation();
    } else if (suggestions.length === 0 && e.key === 'ArrowDown') {
      e.preventDefault();
      refresh(text, input.current?.selectionStart ?? text.length);
    } else if (suggestions.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const n = suggestions.length;
      setActive((a) => (a < 0 ? (e.key === 'ArrowDown' ? 0 : n - 1) : (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n));
    } else if (suggestions.length > 0 && e.key === 'Tab') {
      // Tab completes: the highlighted suggestion, else the first.
      e.preventDefault();
      accept(suggestions[Math.max(0, active)]!);
    } else if (suggestions.length > 0 && e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      accept(suggestions[active]!);
    } else if (e.key === 'Enter') {
      // What is typed is the filter: a finished term is never swapped for a suggestion.
      setSuggestions([]);
    }
  };

  const error = compiled.error;
  return (
    <div className="filter-bar">
      <div className="filter-row">
        <div className={`filter-field${error ? ' has-error' : ''}`}>
          <span className="filter-icon" aria-hidden="true">⌕</span>
          <div className="filter-input-wrap">
            <input
              id={FILTER_INPUT_ID}
              ref={input}
              data-testid="filter-input"
              className="filter-input"
              value={text}
              spellCheck={false}
              autoComplete="off"
              placeholder={placeholder ?? 'Filter: method:tools/call status:err latency>500 …   ( / to focus )'}
              aria-label="Filter"
              aria-invalid={error ? true : undefined}
              aria-describedby="filter-status"
              onChange={(e) => {
                useUi.getState().setFilter(e.target.value);
                refresh(e.target.value, e.target.selectionStart ?? e.target.value.length);
              }}
              onFocus={() => {
                // Captured values may have grown since the last visit; the list opens on typing or ↓.
                values.current = undefined;
              }}
              onBlur={() => setTimeout(() => setSuggestions([]), 150)}
              onKeyDown={onKeyDown}
            />
            {error && (
              <div className="filter-mirror" aria-hidden="true">
                <span className="invisible">{text.slice(0, error.position)}</span>
                <span className="error-mark">{text.slice(error.position, error.position + Math.max(1, error.length)) || ' '}</span>
              </div>
            )}
          </div>
          {text && (
            <button type="button" className="ghost" aria-label="Clear filter" onClick={() => useUi.getState().setFilter('')}>✕</button>
          )}
          <button type="button" className="ghost" aria-label="Filter syntax help" aria-expanded={help} onClick={() => setHelp(!help)}>?</button>
        </div>
        <div className="chips" role="group" aria-label="Quick filters">
          {chips ?? (
            <>
              <SessionScope />
              <Chip term="status:err" label="errors" title="Protocol, tool, transport errors and invalid frames" />
              <Chip term="status:business_error" label="tool errors" title="Results with isError: true" />
              <Chip term="status:pending" label="pending" title="Still waiting for an answer" />
              <SelectionChips />
            </>
          )}
        </div>
      </div>
      {suggestions.length > 0 && (
        <ul className="suggestions" role="listbox" data-testid="suggestions">
          {suggestions.map((s, i) => (
            <li key={s.label} role="option" aria-selected={i === active} className={i === active ? 'active' : ''} onMouseDown={(e) => (e.preventDefault(), accept(s))}>
              <code>{s.label}</code>
              {s.help && <span className="muted"> — {s.help}</span>}
            </li>
          ))}
        </ul>
      )}
      <div id="filter-status" className={`filter-status${error ? ' error' : ''}`} data-testid="filter-status" aria-live="polite">
        {error ? (
          <>✕ Column {error.position + 1}: {error.message}</>
        ) : compiled.description ? (
          <>
            This filter means: {compiled.description}{scope && !counts ? `, in ${scope}` : ''} — <strong>{viewSize}</strong> of {total} {noun}
            {compiled.serverText !== undefined && <SearchNote />}
          </>
        ) : scope && !counts ? (
          <>
            Only {scope} — <strong>{viewSize}</strong> of {total} {noun}
          </>
        ) : null}
        {hint && (
          <span className="filter-hint" data-testid="filter-hint">
            {' '}Did you mean{' '}
            <button type="button" className="link" data-testid="filter-hint-apply" onClick={() => useUi.getState().setFilter(hint.fixed)}>
              <code>{hint.fixed}</code>
            </button>
            ? ({hint.reasons.join('; ')})
          </span>
        )}
      </div>
      {help && <Help onClose={() => setHelp(false)} />}
    </div>
  );
}
