/**
 * Writing a rule: checked by the rule parser as you type, its mistake underlined where it is and
 * explained; Add is enabled only for a rule that parses (the proxy parses it again).
 */
import { useState } from 'react';
import { parseRule } from '@mcpscope/protocol';

export function RuleInput({ disabled, onAdd }: { disabled: boolean; onAdd(text: string): Promise<string | undefined> }) {
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<string>();
  const parsed = text.trim() ? parseRule(text) : undefined;
  const error = parsed && !parsed.ok ? parsed.error : undefined;
  const add = async () => {
    if (!parsed?.ok) return;
    const failure = await onAdd(text);
    setRefused(failure);
    if (!failure) setText('');
  };
  return (
    <form
      className="intercept-add"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <input
        className="mono"
        data-testid="intercept-rule-input"
        aria-label="New rule"
        placeholder="method:tools/call => pause response"
        spellCheck={false}
        value={text}
        disabled={disabled}
        aria-invalid={error !== undefined}
        onChange={(e) => {
          setText(e.target.value);
          setRefused(undefined);
        }}
      />
      <button type="submit" className="small" data-testid="intercept-rule-add" disabled={disabled || !parsed?.ok}>
        Add rule
      </button>
      {error && (
        <div className="intercept-rule-error" data-testid="intercept-rule-error" data-position={error.position} role="status">
          <code className="mono">
            {text.slice(0, error.position)}
            <mark>{text.slice(error.position, error.position + error.length) || ' '}</mark>
            {text.slice(error.position + error.length)}
          </code>
          <span>{error.message}</span>
        </div>
      )}
      {refused && <div className="replay-error" role="alert">{refused}</div>}
    </form>
  );
}
