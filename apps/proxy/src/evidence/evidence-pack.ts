/**
 * Builds the evidence pack of an exchange or a conversation from the capture: the verdicts, the
 * sessions' identities and revision, a timeline excerpt, the frames byte for byte with their
 * SHA-256, the door records and the timings, and the control replay when one was made.
 *
 * Redaction is the export's (export-redaction.ts), in the export's two passes: the redactor first
 * learns the secret values of every frame that goes in (the replay's too), then every captured
 * string of the pack goes through it, so an echo of a secret anywhere in the pack is scrubbed.
 */
import { createHash } from 'node:crypto';
import { exchangeVerdict, parseFilter, type Comparison, type DoorRecord, type ExchangeSummary, type Frame, type JsonObject, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { Redactor } from '../redaction/export-redaction.js';
import { redactDoorRecord } from '../redaction/door-redaction.js';
import { VERSION } from '../core/version.js';
import type { ControlReplayOutcome } from './control-replay.js';
import { EVIDENCE_FORMAT, EVIDENCE_VERSION, type EvidenceExchange, type EvidenceFrame, type EvidencePack, type EvidenceParty, type EvidenceSession, type EvidenceSubject, type EvidenceTiming } from './evidence-document.js';

/** Exchanges of the session shown on each side of the exchange a pack is about. */
export const TIMELINE_CONTEXT = 10;
/** A conversation pack holds its newest exchanges up to this many (frames and all). */
export const MAX_CONVERSATION_EXCHANGES = 200;

/** The exchanges a pack is about, read from the capture; undefined when the subject is unknown. */
export interface EvidenceScope {
  subject: EvidenceSubject;
  timeline: ExchangeSummary[];
  timelineNote?: string;
  /** The exchanges whose frames go in (the subject, or the conversation's). */
  focus: ExchangeSummary[];
  conversationKey?: string;
}

export function evidenceScope(source: CaptureReader, subject: EvidenceSubject): EvidenceScope | undefined {
  if (subject.kind === 'exchange') {
    const ex = source.exchange(subject.id);
    if (!ex) return undefined;
    const { timeline, note } = around(source, ex);
    const conversationKey = ex.conversation ?? source.session(ex.sessionKey)?.conversationKey;
    return { subject, timeline, ...(note ? { timelineNote: note } : {}), focus: [ex], ...(conversationKey ? { conversationKey } : {}) };
  }
  if (!source.conversation(subject.key)) return undefined;
  const parsed = parseFilter(`conversation:${subject.key}`);
  if (!parsed.ok || parsed.filter === null) return undefined;
  const page = new CaptureQuery(source).exchanges(parsed.filter, MAX_CONVERSATION_EXCHANGES);
  const timeline = [...page.exchanges].reverse();
  const note = page.nextBefore !== undefined ? `the conversation's newest ${MAX_CONVERSATION_EXCHANGES} exchanges; older ones are left out` : undefined;
  return { subject, timeline, ...(note ? { timelineNote: note } : {}), focus: timeline, conversationKey: subject.key };
}

/** The exchange's session in capture order, TIMELINE_CONTEXT exchanges either side of it. */
function around(source: CaptureReader, ex: ExchangeSummary): { timeline: ExchangeSummary[]; note?: string } {
  const before: ExchangeSummary[] = [];
  const after: ExchangeSummary[] = [];
  let found = false;
  let skipped = 0;
  let more = false;
  for (const other of source.exchangesInCaptureOrder(ex.sessionKey)) {
    if (other.id === ex.id) found = true;
    else if (!found) {
      before.push(other);
      if (before.length > TIMELINE_CONTEXT) {
        before.shift();
        skipped++;
      }
    } else if (after.length < TIMELINE_CONTEXT) after.push(other);
    else {
      more = true;
      break;
    }
  }
  const timeline = [...before, ex, ...after];
  const cut = [skipped > 0 ? `${skipped} earlier` : '', more ? 'later' : ''].filter(Boolean).join(' and ');
  return { timeline, ...(cut ? { note: `${TIMELINE_CONTEXT} exchanges of the session either side of ${ex.id}; ${cut} exchanges are left out` } : {}) };
}

export interface PackInputs {
  scope: EvidenceScope;
  unredacted?: boolean;
  replay?: ControlReplayOutcome;
  now?: Date;
}

export function buildEvidencePack(source: CaptureReader, { scope, unredacted, replay, now = new Date() }: PackInputs): EvidencePack {
  const redactor = new Redactor({ enabled: !unredacted });
  const focusIds = new Set(scope.focus.map((ex) => ex.id));
  const originalSeqs = unique(scope.focus.flatMap((ex) => ex.frameSeqs));
  const replaySeqs = unique(replay?.exchange?.frameSeqs ?? []).filter((s) => !originalSeqs.includes(s));
  const frames = [...source.frames(originalSeqs), ...source.frames(replaySeqs)];
  // Pass one: the secrets of every frame that goes in, so their echoes elsewhere are known.
  for (const frame of frames) redactor.learn(frame);
  const text = (s: string | undefined) => (s === undefined ? undefined : redactor.text(s));
  const json = (o: JsonObject | undefined) => (o === undefined ? undefined : (JSON.parse(redactor.body(JSON.stringify(o))) as JsonObject));

  const httpBySeq = new Map(frames.map((f) => [f.seq, f.http]));
  const verdicts = scope.focus.flatMap((exchange) => {
    const verdict = exchangeVerdict({ exchange, diagnostics: source.diagnosticsFor(exchange), http: httpBySeq });
    if (!verdict) return [];
    const { quote, ...rest } = verdict;
    const redacted = { ...rest, sentence: redactor.text(rest.sentence), fix: redactor.text(rest.fix), ...(quote !== undefined ? { quote: redactor.text(quote) } : {}) };
    return [{ exchangeId: exchange.id, verdict: redacted }];
  });
  const findings = scope.focus.flatMap((ex) =>
    source.diagnosticsFor(ex).map((d) => ({ exchangeId: ex.id, code: d.code, severity: d.severity, message: redactor.text(d.message), frameSeq: d.frameSeq })),
  );
  const entry = (ex: ExchangeSummary): EvidenceExchange => ({
    id: ex.id,
    sessionKey: ex.sessionKey,
    ...(ex.method !== undefined ? { method: ex.method } : {}),
    ...(ex.target !== undefined ? { target: text(ex.target)! } : {}),
    status: ex.status,
    startTs: ex.startTs,
    ...(ex.endTs !== undefined ? { endTs: ex.endTs } : {}),
    ...(ex.latencyMs !== undefined ? { latencyMs: ex.latencyMs } : {}),
    ...(ex.errorCode !== undefined ? { errorCode: ex.errorCode } : {}),
    ...(ex.errorMessage !== undefined ? { errorMessage: text(ex.errorMessage)! } : {}),
    ...(focusIds.has(ex.id) && (scope.subject.kind === 'exchange' || ex.status !== 'ok') ? { focus: true as const } : {}),
    frameSeqs: ex.frameSeqs,
  });

  const replaySet = new Set(replaySeqs);
  const packFrames = frames.map((f) => packFrame(f, redactor.frame(f), replaySet.has(f.seq) ? 'control-replay' : 'original'));
  const doorIds = unique(frames.flatMap((f) => (f.http?.requestId !== undefined ? [f.http.requestId] : [])));
  const doorRecords = doorIds.flatMap((id) => {
    const record = source.door.get(id);
    return record ? [redactDoorRecord(redactor, record)] : [];
  });
  const doorById = new Map(doorRecords.map((r) => [r.id, r]));
  const timings = [...scope.focus, ...(replay?.exchange ? [replay.exchange] : [])].map((ex) => timing(ex, httpBySeq, doorById));

  const sessionKeys = unique([...scope.timeline.map((ex) => ex.sessionKey), ...(replay?.exchange ? [replay.exchange.sessionKey] : [])]);
  const sessions = sessionKeys.flatMap((key) => {
    const s = source.session(key);
    return s ? [session(s, text, json)] : [];
  });
  const conversation = scope.conversationKey === undefined ? undefined : source.conversation(scope.conversationKey);
  const pack: EvidencePack = {
    format: EVIDENCE_FORMAT,
    version: EVIDENCE_VERSION,
    generator: `mcpscope ${VERSION}`,
    createdAt: now.toISOString(),
    subject: scope.subject,
    title: titleOf(scope),
    redaction: { enabled: false, rules: [], hits: [] },
    ...(conversation
      ? { conversation: { key: conversation.key, host: redactor.text(conversation.host), ...(conversation.hostId !== undefined ? { hostId: redactor.text(conversation.hostId) } : {}), firstTs: conversation.firstTs, lastTs: conversation.lastTs } }
      : {}),
    sessions,
    verdicts,
    findings,
    timeline: scope.timeline.map(entry),
    ...(scope.timelineNote ? { timelineNote: scope.timelineNote } : {}),
    frames: packFrames,
    doorRecords,
    timings,
  };
  if (replay) {
    pack.replay = {
      status: replay.status,
      replayOf: replay.replayOf,
      ...('note' in replay ? { note: redactor.text(replay.note) } : {}),
      ...(replay.exchange ? { exchange: entry(replay.exchange) } : {}),
      ...(replay.status === 'done' && replay.comparison ? { comparison: redactedComparison(replay.comparison, redactor) } : {}),
    };
  }
  // Last: the report counts what the whole pack redacted.
  pack.redaction = redactor.report();
  return pack;
}

function titleOf(scope: EvidenceScope): string {
  if (scope.subject.kind === 'conversation') return `conversation ${scope.subject.key}`;
  const ex = scope.focus[0]!;
  return `exchange ${ex.id}${ex.method ? ` (${ex.method}${ex.target ? ` ${ex.target}` : ''})` : ''}`;
}

function packFrame(original: Frame, included: Frame, role: EvidenceFrame['role']): EvidenceFrame {
  const bytes = Buffer.from(included.raw, 'utf8');
  return {
    seq: included.seq,
    ts: included.ts,
    sessionKey: included.sessionKey,
    direction: included.direction,
    transport: included.transport,
    kind: included.kind,
    ...(included.http ? { http: included.http } : {}),
    raw: included.raw,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    redacted: included.raw !== original.raw,
    ...(included.http?.cut ? { cut: true as const } : {}),
    role,
  };
}

function timing(ex: ExchangeSummary, http: ReadonlyMap<number, Frame['http']>, door: ReadonlyMap<number, DoorRecord>): EvidenceTiming {
  const ids = unique(ex.frameSeqs.flatMap((s) => (http.get(s)?.requestId !== undefined ? [http.get(s)!.requestId!] : [])));
  return {
    exchangeId: ex.id,
    startTs: ex.startTs,
    ...(ex.endTs !== undefined ? { endTs: ex.endTs } : {}),
    ...(ex.latencyMs !== undefined ? { latencyMs: ex.latencyMs } : {}),
    ...(ex.progressAt ? { progressAt: ex.progressAt } : {}),
    requests: ids.map((id) => {
      const r = door.get(id);
      return { id, ...(r?.firstByteMs !== undefined ? { firstByteMs: r.firstByteMs } : {}), ...(r?.endMs !== undefined ? { endMs: r.endMs } : {}) };
    }),
  };
}

function session(s: SessionSummary, text: (s: string | undefined) => string | undefined, json: (o: JsonObject | undefined) => JsonObject | undefined): EvidenceSession {
  const client: EvidenceParty = {};
  const server: EvidenceParty = {};
  if (s.clientInfo) client.info = json(s.clientInfo)!;
  if (s.userAgent) client.userAgent = text(s.userAgent)!;
  if (s.clientLabel) client.label = text(s.clientLabel)!;
  if (s.serverInfo) server.info = json(s.serverInfo)!;
  return {
    sessionKey: s.sessionKey,
    transport: s.transport,
    ...(s.protocolVersion ? { revision: s.protocolVersion } : {}),
    ...(s.era ? { era: s.era } : {}),
    client,
    server,
    firstTs: s.firstTs,
    lastTs: s.lastTs,
    ...(s.ended ? { ended: true } : {}),
    ...(s.expired ? { expired: true } : {}),
  };
}

function redactedComparison(c: Comparison, redactor: Redactor): Comparison {
  if (!c.difference) return c;
  const d = c.difference;
  return { ...c, difference: { ...d, ...(d.before !== undefined ? { before: redactor.text(d.before) } : {}), ...(d.after !== undefined ? { after: redactor.text(d.after) } : {}) } };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
