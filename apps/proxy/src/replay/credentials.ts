/**
 * The upstream credentials each session used (Authorization, cookies, API keys), kept in memory
 * only so that a `session` replay can present them again. The capture store never sees them: it
 * holds redacted headers. Bounded: the oldest sessions are forgotten first.
 */
import { redactHeaderValue } from '../redaction/redact.js';

const MAX_SESSIONS = 5_000;

export class SessionCredentials {
  private readonly bySession = new Map<string, Record<string, string>>();

  /** Called by the tap for every forwarded request; keeps only the secret headers. */
  remember(sessionKey: string, headers: Record<string, string | string[] | undefined>): void {
    let secrets: Record<string, string> | undefined;
    for (const [name, raw] of Object.entries(headers)) {
      const value = Array.isArray(raw) ? raw.join(name === 'cookie' ? '; ' : ', ') : raw;
      if (value === undefined || redactHeaderValue(name, value) === value) continue;
      (secrets ??= {})[name.toLowerCase()] = value;
    }
    if (!secrets) return;
    this.bySession.delete(sessionKey); // re-insert: most recently used last
    this.bySession.set(sessionKey, secrets);
    if (this.bySession.size > MAX_SESSIONS) this.bySession.delete(this.bySession.keys().next().value!);
  }

  /** Copies a session's credentials to another key (a fresh session opened on its behalf). */
  share(from: string, to: string): void {
    const secrets = this.bySession.get(from);
    if (secrets) this.bySession.set(to, { ...secrets });
  }

  get(sessionKey: string): Record<string, string> {
    return { ...(this.bySession.get(sessionKey) ?? {}) };
  }
}
