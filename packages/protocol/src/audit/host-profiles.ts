/**
 * The host profiles: one JSON file per host (hosts/*.json) with the limits and behaviours the
 * checks compare against, each figure with its source and the day it was checked. A profile is
 * updated by editing its file, not code. Imported as modules so the dashboard has them too.
 */
import chatgpt from './hosts/chatgpt.json' with { type: 'json' };
import claudeCode from './hosts/claude-code.json' with { type: 'json' };
import claude from './hosts/claude.json' with { type: 'json' };
import cursor from './hosts/cursor.json' with { type: 'json' };
import vscode from './hosts/vscode.json' with { type: 'json' };
import type { HostId, HostProfileLike } from './audit-types.js';

export type HostProfile = HostProfileLike;

export const HOST_PROFILES: readonly HostProfile[] = [chatgpt, claude, claudeCode, cursor, vscode] as HostProfile[];

export function hostProfile(id: HostId): HostProfile {
  return HOST_PROFILES.find((p) => p.id === id)!;
}
