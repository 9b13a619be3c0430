/**
 * The evidence pack as one JSON document: what a bug report to a host vendor or a server
 * maintainer needs about one exchange or one conversation. Every captured string in it went
 * through the export's redactor (unless the user opted out, which `redaction.enabled` says), and
 * each frame carries the SHA-256 of its text exactly as included here.
 */
import type { Comparison, DoorRecord, ExchangeStatus, ExchangeVerdict, HttpInfo, JsonObject } from '@mcpscope/protocol';

export const EVIDENCE_FORMAT = 'mcpscope-evidence';
export const EVIDENCE_VERSION = 1;

export const EVIDENCE_FORMATS = ['md', 'html'] as const;
export type EvidenceFormat = (typeof EVIDENCE_FORMATS)[number];

/** What the pack is about: one exchange (`id`) or one conversation (`key`). */
export type EvidenceSubject = { kind: 'exchange'; id: string } | { kind: 'conversation'; key: string };

export interface EvidenceParty {
  /** `clientInfo` / `serverInfo` as the peer announced it at initialize. */
  info?: JsonObject;
  /** The client's User-Agent header and mcpscope's friendly name for it (clients only). */
  userAgent?: string;
  label?: string;
}

export interface EvidenceSession {
  sessionKey: string;
  transport: string;
  /** The protocol revision the two sides agreed on at initialize. */
  revision?: string;
  era?: string;
  client: EvidenceParty;
  server: EvidenceParty;
  firstTs: number;
  lastTs: number;
  ended?: boolean;
  expired?: boolean;
}

export interface EvidenceExchange {
  id: string;
  sessionKey: string;
  method?: string;
  target?: string;
  status: ExchangeStatus;
  startTs: number;
  endTs?: number;
  latencyMs?: number;
  errorCode?: number;
  errorMessage?: string;
  /** The exchange the pack is about, or one of the conversation's failed ones. */
  focus?: true;
  frameSeqs: number[];
}

export interface EvidenceVerdict {
  exchangeId: string;
  verdict: ExchangeVerdict;
}

export interface EvidenceFinding {
  exchangeId: string;
  code: string;
  severity: string;
  message: string;
  frameSeq: number;
}

export interface EvidenceFrame {
  seq: number;
  ts: number;
  sessionKey: string;
  direction: 'c2s' | 's2c';
  transport: string;
  kind: string;
  http?: HttpInfo;
  /** The frame's text as included (redacted unless the pack is unredacted). */
  raw: string;
  /** SHA-256 (hex) of `raw`'s UTF-8 bytes: the text as included in this pack. */
  sha256: string;
  bytes: number;
  /** Redaction changed this text: `sha256` is of the redacted text, not of what was captured. */
  redacted: boolean;
  /** The tap kept only the first part of a larger body (`http.cut.size` bytes went over the wire). */
  cut?: true;
  /** `original` (captured) or `control-replay` (sent by mcpscope while writing this pack). */
  role: 'original' | 'control-replay';
}

export interface EvidenceTiming {
  exchangeId: string;
  startTs: number;
  endTs?: number;
  latencyMs?: number;
  /** When progress notifications came, in ms after the request. */
  progressAt?: number[];
  /** Per HTTP request the exchange rode on: ms to the response head and to its end. */
  requests: { id: number; firstByteMs?: number; endMs?: number }[];
}

export interface EvidenceReplay {
  /** `done`: the call was sent again in a fresh session; otherwise why it was not (or failed). */
  status: 'done' | 'not-run' | 'failed';
  note?: string;
  /** The captured exchange it replays. */
  replayOf: string;
  exchange?: EvidenceExchange;
  /** The cassette comparison of the captured answer (before) and the replay's (after). */
  comparison?: Comparison;
}

export interface EvidencePack {
  format: typeof EVIDENCE_FORMAT;
  version: typeof EVIDENCE_VERSION;
  generator: string;
  createdAt: string;
  subject: EvidenceSubject;
  title: string;
  redaction: { enabled: boolean; rules: string[]; hits: { rule: string; count: number }[] };
  conversation?: { key: string; host: string; hostId?: string; firstTs: number; lastTs: number };
  sessions: EvidenceSession[];
  verdicts: EvidenceVerdict[];
  findings: EvidenceFinding[];
  /** Exchanges in capture order: the session around the exchange, or the conversation's. */
  timeline: EvidenceExchange[];
  /** Set when the timeline leaves exchanges out (it is an excerpt). */
  timelineNote?: string;
  frames: EvidenceFrame[];
  doorRecords: DoorRecord[];
  timings: EvidenceTiming[];
  replay?: EvidenceReplay;
}
