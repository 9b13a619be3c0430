/**
 * What the sessions sidebar says about a session: who the client is (ChatGPT is named as such),
 * the server, the revision and the capabilities each side declared. Pure, so it is tested alone.
 */
import type { JsonObject, SessionSummary } from '@mcpscope/protocol';

const str = (o: JsonObject | undefined, key: string) => (typeof o?.[key] === 'string' ? (o[key] as string) : undefined);

export function clientName(s: SessionSummary): string {
  return s.clientLabel ?? str(s.clientInfo, 'title') ?? str(s.clientInfo, 'name') ?? s.userAgent ?? 'unknown client';
}

export function serverName(s: SessionSummary): string | undefined {
  const name = str(s.serverInfo, 'title') ?? str(s.serverInfo, 'name');
  const version = str(s.serverInfo, 'version');
  return name && version ? `${name} ${version}` : name;
}

/** Capability names a side declared (`tools`, `resources.subscribe`, `sampling` …). */
export function capabilityNames(caps: JsonObject | undefined): string[] {
  if (!caps) return [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(caps)) {
    names.push(key);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [sub, flag] of Object.entries(value)) if (flag === true) names.push(`${key}.${sub}`);
    }
  }
  return names;
}
