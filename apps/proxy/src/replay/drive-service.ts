/**
 * The dashboard's Drive panel: messages built from forms (a tool call, a prompt, a resource read,
 * a list sent now), sent into mcpscope's own dashboard session or into a captured one, through
 * replay's machinery, so they are captured like any traffic and labelled `fromDashboard` (linked
 * to the list the form came from). mcpscope's own session presents itself as `mcpscope
 * (dashboard)` and says it can answer sampling, elicitation (form and URL) and roots, and listens
 * on its event stream, so the server's requests reach the dashboard user (replay-inputs.ts).
 */
import type { DriveLists, DriveSendResponse, DriveViolation, JsonObject } from '@mcpscope/protocol';
import { DASHBOARD_LINK } from '../capture/replay-links.js';
import type { DriveCheck } from './drive-check.js';
import type { BehalfChannels, OnBehalf } from './on-behalf.js';
import { fail, ok, type Result } from './replay-errors.js';
import type { ReplayMode } from './replay-body.js';
import type { ReplayStore } from './replay-store.js';

/** What mcpscope's own session says it can do: everything a server may ask the dashboard user. */
export const DRIVE_CAPABILITIES: JsonObject = { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } };
export const DRIVE_LABEL = 'dashboard';

export interface DriveSend {
  message: JsonObject;
  mode: ReplayMode;
  sessionKey?: string;
  from?: string;
  anyway: boolean;
}

export type DriveResult = Result<DriveSendResponse> | { ok: false; violations: DriveViolation[] };

export class DriveService {
  /** Bumped by "new session": the next send opens another own session. */
  private generation = 1;

  constructor(private readonly deps: { behalf: BehalfChannels; store: ReplayStore; check: DriveCheck }) {}

  private own(): OnBehalf {
    return { mode: 'fresh', linkMode: DASHBOARD_LINK, channelKey: `drive-${this.generation}`, label: DRIVE_LABEL, extraCapabilities: DRIVE_CAPABILITIES, listen: true };
  }

  /** mcpscope's own dashboard session, opened now if it is not (another one with `renew`). */
  async openOwn(renew: boolean, signal: AbortSignal): Promise<Result<{ sessionKey: string }>> {
    if (renew) this.generation++;
    const channel = await this.deps.behalf.channel({ jsonrpc: '2.0', id: 0, method: 'ping' }, this.own(), signal);
    return channel.ok ? ok({ sessionKey: channel.value.sessionKey }) : channel;
  }

  async send(body: DriveSend, signal: AbortSignal): Promise<DriveResult> {
    const on: OnBehalf = body.mode === 'fresh' ? this.own() : { mode: 'session', linkMode: DASHBOARD_LINK, ...(body.sessionKey !== undefined ? { sessionKey: body.sessionKey } : {}) };
    if (body.from !== undefined) {
      if (!this.deps.store.exchange(body.from)) return fail('not_found', `No exchange ${body.from} in the capture.`);
      on.linkTo = body.from;
    }
    const channel = await this.deps.behalf.channel(body.message, on, signal);
    if (!channel.ok) return channel;
    const { sessionKey } = channel.value;
    const violations = this.deps.check.violations(body.message, (method, field) => this.deps.store.listed(sessionKey, method, field));
    if (violations.length > 0 && !body.anyway) return { ok: false, violations };
    const sent = await this.deps.behalf.send(body.message, on, signal);
    return sent.ok ? ok({ ...sent.value, violations }) : sent;
  }

  lists(sessionKey: string): DriveLists {
    const { store } = this;
    return {
      tools: store.listed(sessionKey, 'tools/list', 'tools'),
      prompts: store.listed(sessionKey, 'prompts/list', 'prompts'),
      resources: store.listed(sessionKey, 'resources/list', 'resources'),
      resourceTemplates: store.listed(sessionKey, 'resources/templates/list', 'resourceTemplates'),
    };
  }

  private get store(): ReplayStore {
    return this.deps.store;
  }
}
