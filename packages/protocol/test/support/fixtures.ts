// The fixture corpus: test/fixtures/<revision>/<Type>/<case>.json, rejections under rejection/.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../src/index.js';
import { METHODS, NOTIFICATIONS, REVISIONS, type MessageCheck, type Revision } from '../../src/validate/index.js';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface Fixture {
  rev: Revision;
  type: string;
  name: string;
  rejection: boolean;
  value: JsonObject;
}

export function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const rev of REVISIONS) {
    for (const rejection of [false, true]) {
      const dir = rejection ? join(ROOT, rev, 'rejection') : join(ROOT, rev);
      if (!existsSync(dir)) continue;
      for (const type of readdirSync(dir)) {
        if (type === 'rejection') continue;
        for (const file of readdirSync(join(dir, type))) {
          const value = JSON.parse(readFileSync(join(dir, type, file), 'utf8')) as JsonObject;
          out.push({ rev, type, name: file.replace(/\.json$/, ''), rejection, value });
        }
      }
    }
  }
  return out;
}

/** The request a result fixture answers, read from its type name. */
function requestFor(type: string): { method: string; params?: JsonObject } | undefined {
  if (type === 'EmptyResult') return { method: 'ping' };
  if (type === 'InputRequiredResult') return { method: 'tools/call' };
  const entry = Object.entries(METHODS).find(([, info]) => info.result === type);
  return entry ? { method: entry[0] } : undefined;
}

/** How the validator is asked about a fixture message: who sent it and what it answers. */
export function checkFor(rev: Revision, type: string, value: JsonObject): MessageCheck {
  if (typeof value.method === 'string') {
    const info = 'id' in value ? METHODS[value.method] : NOTIFICATIONS[value.method];
    return { revision: rev, sender: info?.sender === 'server' ? 'server' : 'client', value };
  }
  const request = requestFor(type);
  const sender = request && METHODS[request.method]?.sender === 'server' ? 'client' : 'server';
  return { revision: rev, sender, value, ...(request ? { request } : {}) };
}
