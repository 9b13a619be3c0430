/**
 * The Drive panel's routes through the one ApiClient: mcpscope's own session, sending a built
 * message (a refusal for broken arguments is an answer the panel shows, not an error), the
 * session's lists, and the server requests waiting for the user (shared with replay).
 */
import type { DriveLists, DriveOwnResponse, DriveRefusal, DriveSendRequest, DriveSendResponse, ReplayFailure } from '@mcpscope/protocol';
import { ApiError, type ApiClient } from '../api/client.js';
import { ReplayApi } from '../replay/replay-api.js';

export type DriveOutcome = { kind: 'sent'; value: DriveSendResponse } | { kind: 'refused'; refusal: DriveRefusal } | { kind: 'failed'; failure: ReplayFailure };

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

/** The server's message when it refuses to drive because the dashboard shows a file (`mcpscope open`). */
export function readOnlyRefusal(err: unknown): string | undefined {
  return err instanceof ApiError && err.code === 'read_only' ? err.message : undefined;
}

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

  /** undefined where Drive works; else why it cannot (a capture opened read-only has no server to drive). */
  async unavailable(): Promise<string | undefined> {
    try {
      await this.client.request('/api/drive/answers');
      return undefined;
    } catch (err) {
      const refusal = readOnlyRefusal(err);
      if (refusal === undefined) throw err;
      return refusal;
    }
  }

  lists(sessionKey: string): Promise<DriveLists> {
    return this.client.request<DriveLists>(`/api/drive/lists?session=${encodeURIComponent(sessionKey)}`);
  }
}
