/**
 * The connection flow: one client's door records told as a story (probes, discovery,
 * registration, authorization, token, MCP), each step coloured by a check written from the specs
 * with a one-sentence reason, the spec it rests on, and links to the records it is about.
 */
import type { ExchangeSummary } from '../../model/exchange.js';
import type { SessionSummary } from '../../session/session-summary.js';
import type { ClientEvidence } from '../door-clients.js';

export type FlowPhase = 'probe' | 'discovery' | 'registration' | 'authorization' | 'token' | 'mcp';

export const FLOW_PHASES: readonly FlowPhase[] = ['probe', 'discovery', 'registration', 'authorization', 'token', 'mcp'];

export const PHASE_LABELS: Record<FlowPhase, string> = {
  probe: 'Probe',
  discovery: 'Discovery',
  registration: 'Registration',
  authorization: 'Authorization',
  token: 'Token',
  mcp: 'MCP',
};

/**
 * green: as the specs want it; amber: works, but some clients will not, or something is missing
 * that a tap cannot judge; red: a client following the specs stops here; grey: information (a
 * probe, a step the tap cannot see).
 */
export type StepColour = 'green' | 'amber' | 'red' | 'grey';

export interface FlowStep {
  phase: FlowPhase;
  colour: StepColour;
  /** What happened, e.g. `GET /.well-known/oauth-protected-resource/mcp → 404`. */
  title: string;
  /** Why this colour, in one sentence. */
  reason: string;
  /** The check that coloured it (stable, for tests and links): `prm-resource-mismatch`. */
  check: string;
  /** What the reason rests on: `RFC 9728 §3.3`, `MCP 2025-11-25 Authorization`. */
  spec?: string;
  /** Door records the step is about (ids), in order. */
  records: number[];
  /** MCP exchanges the step is about (ids). */
  exchanges?: string[];
  /** Set on a probe step: what kind of probe. */
  probe?: string;
}

export type VerdictKind = 'connected' | 'failed' | 'probed' | 'incomplete';

export interface FlowVerdict {
  kind: VerdictKind;
  /** "probed, never connected", "failed at discovery: …", "connected (2025-11-25)". */
  sentence: string;
}

export interface ConnectionFlow {
  clientKey: string;
  /** "ChatGPT", the SDK client's name, else the User-Agent. */
  label: string;
  userAgent?: string;
  address: string;
  firstTs: number;
  lastTs: number;
  joinedBy: ClientEvidence[];
  /** The host's conversation, when the client is one (see door-clients). */
  conversationKey?: string;
  /** MCP sessions the client used (a host that churns opens one per call). */
  sessions: number;
  verdict: FlowVerdict;
  steps: FlowStep[];
  /** How many of its records are probes. */
  probes: number;
  records: number;
}

/** What the flow reads besides door records: the MCP traffic they carried. */
export interface FlowFacts {
  exchange(id: string): ExchangeSummary | undefined;
  session(sessionKey: string): SessionSummary | undefined;
  /** The tap's `--public-url` origin, when it has one (metadata names it after the rewrite). */
  publicOrigin?: string;
  /** The path of the tap's MCP endpoint (`/mcp`), to name the right URL to a client that POSTs elsewhere. */
  mcpPath?: string;
}

export const NO_FACTS: FlowFacts = { exchange: () => undefined, session: () => undefined };
