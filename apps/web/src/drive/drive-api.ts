/**
 * The Drive panel's routes through the one ApiClient: mcpscope's own session, sending a built
 * message (a refusal for broken arguments is an answer the panel shows, not an error), the
 * session's lists, and the server requests waiting for the user (shared with replay).
 */
import type { DriveLists, DriveOwnResponse, DriveRefusal, DriveSendRequest, DriveSendResponse, ReplayFailure } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { ReplayApi } from '../replay/replay-api.js';

export type DriveOutcome = { kind: 'sent'; value: DriveSendResponse } | { kind: 'refused'; refusal: DriveRefusal } | { kind: 'failed'; failure: ReplayFailure };

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

export class DriveApi extends ReplayApi {
  constructor(private readonly client: ApiClient) {
    super(client);
  }

  async own(renew = false): Promise<string> {
    return (await this.client.request<DriveOwnResponse>('/api/drive/own', post({ renew }))).sessionKey;
  }

  async send(request: DriveSendRequest): Promise<DriveOutcome> {
    const res = await this.client.answer<DriveSendResponse | DriveRefusal | ReplayFailure>('/api/drive/send', post(request));
    if (res.status === 200) return { kind: 'sent', value: res.body as DriveSendResponse };
    if (res.status === 422 && 'violations' in (res.body as object)) return { kind: 'refused', refusal: res.body as DriveRefusal };
    return { kind: 'failed', failure: res.body as ReplayFailure };
  }

  lists(sessionKey: string): Promise<DriveLists> {
    return this.client.request<DriveLists>(`/api/drive/lists?session=${encodeURIComponent(sessionKey)}`);
  }
}
