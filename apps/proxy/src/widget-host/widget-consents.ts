/**
 * Which tools the user allowed a widget to call on the live server, for this run (in memory), as a
 * host asks before an app's first call of a tool. A widget is its resource URI on one server:
 * every preview of that widget (every captured call of its tool) shares the answer, as a host's
 * per-app consent does.
 *
 * Only the dashboard API grants (POST /api/widget/:id/consent, behind the dashboard's token and
 * Origin checks); the widget runs on its own sandbox origin with neither, and its bridge can only
 * ask for calls. Only an allow is stored: a denied tool keeps asking (the dashboard remembers the
 * denial for as long as the widget runs).
 */
export class WidgetConsents {
  private readonly allowed = new Map<string, Set<string>>();

  allow(server: string, uri: string, tool: string): void {
    const key = keyOf(server, uri);
    const tools = this.allowed.get(key) ?? new Set<string>();
    tools.add(tool);
    this.allowed.set(key, tools);
  }

  allows(server: string, uri: string, tool: string): boolean {
    return this.allowed.get(keyOf(server, uri))?.has(tool) ?? false;
  }

  toolsAllowed(server: string, uri: string): string[] {
    return [...(this.allowed.get(keyOf(server, uri)) ?? [])].sort();
  }
}

const keyOf = (server: string, uri: string) => JSON.stringify([server, uri]);
