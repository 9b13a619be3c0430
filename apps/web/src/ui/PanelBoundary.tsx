/**
 * Keeps a failing panel from taking the page down: React unmounts the whole root when a render
 * throws and nothing catches it, so each panel of the page sits inside one of these. The failed
 * panel shows an error card (what failed, the message, a "Try again" that renders it afresh);
 * every other panel keeps working. `resetKey` changing (a new selection, another view) also
 * renders the panel afresh, so one bad row does not leave the pane broken for the next.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the panel is, for the card ("the timeline", "the detail pane"). */
  name: string;
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error?: Error;
  resetKey?: unknown;
}

export class PanelBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: undefined };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console keeps the stack for a bug report; the card keeps the page usable.
    console.error(`mcpscope: ${this.props.name} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="panel-error" role="alert" data-testid="panel-error" data-panel={this.props.name}>
        <strong>Something went wrong in {this.props.name}.</strong>
        <code className="panel-error-message">{error.message}</code>
        <span className="muted">The rest of the dashboard still works. The browser console has the details.</span>
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          Try again
        </button>
      </section>
    );
  }
}
