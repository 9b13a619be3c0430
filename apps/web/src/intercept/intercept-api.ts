/**
 * The intercept routes through the one ApiClient: the rule set, the held frames and what the
 * rules did (`GET /api/intercept`), and the controls (token-guarded, like every route).
 */
import type { InterceptResponse, RuleView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
const id = (value: string | number) => encodeURIComponent(String(value));

export class InterceptApi {
  constructor(private readonly client: ApiClient) {}

  state(): Promise<InterceptResponse> {
    return this.client.request<InterceptResponse>('/api/intercept');
  }

  addRule(text: string): Promise<RuleView> {
    return this.client.request<RuleView>('/api/intercept/rules', json('POST', { text }));
  }

  setEnabled(ruleId: string, enabled: boolean): Promise<unknown> {
    return this.client.request(`/api/intercept/rules/${id(ruleId)}`, json('PATCH', { enabled }));
  }

  remove(ruleId: string): Promise<unknown> {
    return this.client.request(`/api/intercept/rules/${id(ruleId)}`, { method: 'DELETE' });
  }

  /** Sends the held frame on, as `text` when given (an edited frame), else as it was. */
  release(heldId: number, text?: string): Promise<unknown> {
    return this.client.request(`/api/intercept/held/${id(heldId)}/release`, json('POST', text === undefined ? {} : { text }));
  }

  drop(heldId: number): Promise<unknown> {
    return this.client.request(`/api/intercept/held/${id(heldId)}/drop`, json('POST', {}));
  }
}
