/** The mark on an exchange (or a frame) an intercept rule acted on: never plain traffic. Its title is the rule. */
export function InterceptMark({ rule, action, what }: { rule: string; action: string; what?: 'made' | 'changed' }) {
  const verb = what === 'made' ? 'Made by mcpscope' : what === 'changed' ? 'Changed by mcpscope' : 'Intercepted';
  return (
    <span className="replay-mark intercept-mark" data-testid="intercept-mark" data-action={action} title={`${verb}: rule ${rule}`}>
      ⚡ {action}
    </span>
  );
}
