/**
 * The readiness audit's vocabulary: a check (id, hosts, help, source, evaluate), the evidence it
 * reads (calls, notifications and door records from a capture) and what it says (pass / warn /
 * fail / not-seen, each finding linked to the frame or door record it rests on and the JSON path
 * inside it). A check never guesses: evidence it needs and did not find is `not-seen`, with the
 * traffic that would show it.
 */
import type { DoorRecord } from '../door/door-record.js';
import type { ExchangeStatus } from '../model/exchange.js';
import type { JsonObject, JsonValue } from '../model/json-rpc.js';

/** The hosts the audit has a profile for (hosts/*.json). */
export type HostId = 'chatgpt' | 'claude' | 'claude-code' | 'cursor' | 'vscode';
export const HOST_IDS: readonly HostId[] = ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode'];

export type Verdict = 'pass' | 'warn' | 'fail' | 'not-seen';

/**
 * Where a rule comes from. `field-report` marks a rule that rests on what developers observed
 * (a public issue or thread), not on a document the host or the spec publishes.
 */
export interface CheckSource {
  url: string;
  kind: 'docs' | 'spec' | 'field-report';
  /** The day the source was read against the rule (YYYY-MM-DD). */
  checked: string;
}

/** A link into the capture: an exchange (its frames) or a door record, and the JSON path inside. */
export interface EvidenceLink {
  exchangeId?: string;
  doorRecordId?: number;
  path?: string;
}

export interface Finding {
  verdict: 'warn' | 'fail';
  message: string;
  evidence?: EvidenceLink;
  /** The hosts this finding breaks (a subset of the check's hosts); absent: all of them. */
  hosts?: HostId[];
}

/** One JSON-RPC request and its answer, as the audit reads them. */
export interface AuditCall {
  /** The capture's exchange id (the seq of the request frame). */
  id: string;
  sessionKey: string;
  method: string;
  params?: JsonObject;
  result?: JsonObject;
  error?: { code?: number; message?: string };
  status: ExchangeStatus;
  startTs: number;
  latencyMs?: number;
}

/** A notification, either way. */
export interface AuditNotification {
  id: string;
  sessionKey: string;
  method: string;
  direction: 'c2s' | 's2c';
  ts: number;
}

export interface AuditEvidence {
  calls: AuditCall[];
  notifications: AuditNotification[];
  /** Every HTTP request at the tap (empty for a stdio capture or a file without them). */
  door: DoorRecord[];
}

export interface AuditOptions {
  /** The MCP server URL as a host is given it (the connector URL): widget origins derive from it. */
  serverUrl?: string;
  /** The developer means to submit the app to ChatGPT's directory: submission-only checks run. */
  submitting?: boolean;
  /** Validates a value against a JSON Schema (Ajv lives outside this package); absent: not checked. */
  schemaCheck?: (schema: JsonObject, value: JsonValue) => { ok: true } | { ok: false; message: string; path?: string };
}

export interface CheckOutcome {
  verdict: Verdict;
  findings: Finding[];
  /** One line on what was looked at (a pass says what passed; not-seen says what is missing). */
  summary: string;
}

export interface AuditCheck {
  id: string;
  title: string;
  group: 'tools' | 'results' | 'widgets' | 'connection' | 'behaviour';
  /** The hosts whose behaviour the rule describes. */
  hosts: readonly HostId[];
  /** Why the rule exists: what the host does when it is broken. */
  help: string;
  /** The fix, one sentence. */
  fix: string;
  /** The traffic that would show this check's evidence, for a not-seen verdict. */
  needs: string;
  source: CheckSource;
  evaluate(context: AuditContextLike): CheckOutcome;
}

/** What a check reads (audit-context.ts builds it); declared here so checks import types only. */
export interface AuditContextLike {
  readonly evidence: AuditEvidence;
  readonly options: AuditOptions;
  readonly profiles: readonly HostProfileLike[];
  readonly tools: readonly ListedTool[];
  readonly toolsListId: string | undefined;
  readonly initialize: AuditCall | undefined;
  readonly resourceReads: readonly AuditCall[];
  readonly toolCalls: readonly AuditCall[];
  readonly listedResources: readonly JsonObject[];
}

export interface ListedTool {
  tool: JsonObject;
  name: string;
  /** The tools/list exchange and the tool's path inside its frame. */
  exchangeId: string;
  path: string;
}

/** A host profile as data (hosts/*.json); every figure carries its source. */
export interface HostProfileLike {
  id: HostId;
  name: string;
  checked: string;
  toolLimit?: SourcedFigure;
  toolNameLimit?: SourcedFigure;
  combinedNameLimit?: SourcedFigure;
  callTimeoutMs?: SourcedFigure;
  /** Tokens of a tool's output past which the host warns, and past which it refuses or cuts it. */
  resultTokenWarn?: SourcedFigure;
  resultTokenLimit?: SourcedFigure;
  rereadsToolsOnListChanged?: { value: boolean; url: string; kind: CheckSource['kind']; note?: string };
  protocolVersions?: { value: string[]; url: string; kind: CheckSource['kind'] };
  widgets?: { value: 'mcp-apps' | 'apps-sdk+mcp-apps' | 'none'; url: string; kind: CheckSource['kind'] };
}

export interface SourcedFigure {
  value: number;
  url: string;
  kind: CheckSource['kind'];
  note?: string;
}

export interface CheckResult {
  id: string;
  title: string;
  group: AuditCheck['group'];
  hosts: HostId[];
  verdict: Verdict;
  summary: string;
  findings: Finding[];
  help: string;
  fix: string;
  needs: string;
  source: CheckSource;
}

export interface HostReadiness {
  host: HostId;
  name: string;
  ready: boolean;
  /** Ids of the failing checks that break this host. */
  failing: string[];
  warnings: string[];
}

export interface AuditReport {
  checks: CheckResult[];
  hosts: HostReadiness[];
  counts: Record<Verdict, number>;
  /** 0 ready, 1 a failing check (the CLI's exit code when the audit ran). */
  ready: boolean;
}
