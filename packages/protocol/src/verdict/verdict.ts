/**
 * The verdict on an exchange that did not end well: whose fault it is and the fix, in one sentence
 * each, from a fixed set a user can act on, with the evidence it rests on (frames, door records,
 * findings, timings). Pure and total: an exchange and its findings in, a verdict (or none for an
 * exchange that is fine or still waiting) out. Read, not stored: it follows the current rules for
 * old captures too.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { hostRuleBreak } from '../diagnostics/host-rule-breaks.js';
import type { ExchangeSummary } from '../model/exchange.js';
import type { HttpInfo } from '../model/frame.js';

export const EXCHANGE_VERDICT_KINDS = [
  'client-malformed-request',
  'server-protocol-error',
  'server-refused',
  'protocol-problem-as-business',
  'business-failure-as-protocol',
  'transport-failed',
  'server-never-answered',
  'host-gave-up',
  'answer-broke-host-rules',
  // Of a conversation, not of one exchange (conversation-verdict.ts).
  'host-never-called',
] as const;
export type ExchangeVerdictKind = (typeof EXCHANGE_VERDICT_KINDS)[number];

/** Who has to change something: the client (or host), the server, or the path between them. */
export type Fault = 'client' | 'server' | 'transport';

export interface ExchangeVerdict {
  kind: ExchangeVerdictKind;
  fault: Fault;
  /** A few words: "Server never answered". */
  title: string;
  /** What happened, in one sentence. */
  sentence: string;
  /** What to change, in one sentence. */
  fix: string;
  /** What the peer itself said (an error message, a tool's reason), as recorded: captured text, never mcpscope's words. */
  quote?: string;
  evidence: {
    frameSeqs: number[];
    /** Door records (`GET /api/requests/:id`) of the HTTP requests the frames rode on. */
    doorRecordIds: number[];
    diagnosticCodes: string[];
    latencyMs?: number;
  };
}

export interface ExchangeVerdictInput {
  exchange: ExchangeSummary;
  diagnostics: readonly Diagnostic[];
  /** The HTTP side of the exchange's frames, by seq, when they rode on HTTP. */
  http?: ReadonlyMap<number, HttpInfo | undefined>;
}

/** Findings that make a finished request the client's fault. */
const CLIENT_FAULTS = new Set([
  'tool-arguments-invalid',
  'tool-arguments-flattened',
  'tool-call-wrong-field',
  'params-invalid',
  'method-name',
  'request-without-id',
  'id-reused-in-flight',
  'resource-id-instead-of-uri',
  'phantom-tool',
  'envelope-invalid',
  'invalid-message',
  'internal-error-for-bad-request',
]);

export function exchangeVerdict(input: ExchangeVerdictInput): ExchangeVerdict | undefined {
  const { exchange: ex, diagnostics } = input;
  const codes = new Set(diagnostics.map((d) => d.code));
  const clientFinding = diagnostics.find((d) => CLIENT_FAULTS.has(d.code) && d.severity !== 'info' && (d.frameSeq === ex.requestSeq || d.code === 'internal-error-for-bad-request'));
  const what = describe(ex);
  const make: Make = (kind, fault, title, sentence, fix, quote) => ({
    kind,
    fault,
    title,
    sentence,
    fix,
    ...(quote !== undefined && quote !== '' ? { quote } : {}),
    evidence: evidenceOf(input, kind === 'server-never-answered' || kind === 'transport-failed' ? [] : [...codes]),
  });

  switch (ex.status) {
    case 'pending':
    case 'orphan':
      return undefined;
    case 'ok': {
      const broken = hostRuleBreak(diagnostics);
      if (!broken) return undefined;
      return make('answer-broke-host-rules', 'server', 'The answer breaks the rules', `The server answered ${what}, but the answer breaks a rule hosts enforce: ${firstSentence(broken.message)}`, fixOf(broken.message, 'Make the answer follow the schema the tool declared.'));
    }
    case 'cancelled':
      return make(
        'host-gave-up',
        'client',
        'The client gave up',
        ex.transportEvent === 'client-disconnected'
          ? `The client disconnected from ${what} ${after(ex)}before the server answered.`
          : `The client cancelled ${what} ${after(ex)}before the server answered.`,
        'If the server is slow, answer sooner or send progress notifications; if the client gave up too early, raise its timeout.',
        ex.errorMessage,
      );
    case 'transport_error':
      return transportVerdict(ex, what, make);
    case 'invalid':
      return ex.requester === 'none' && ex.direction === 'c2s'
        ? make('client-malformed-request', 'client', 'The client sent a malformed message', 'The client sent a message that is not valid JSON-RPC.', 'Fix the client so every message is one JSON-RPC object with "jsonrpc": "2.0".', ex.errorMessage)
        : make('server-protocol-error', 'server', 'The server answered with a malformed message', `The server's answer to ${what} is not valid JSON-RPC.`, 'Fix the server so it answers with a JSON-RPC response carrying the request\'s id and either result or error.', ex.errorMessage);
    case 'business_error':
      // A tool error about the client's own bad request is the client's to fix: since 2025-11-25
      // the spec asks servers to report input validation as a tool error, so the model can retry.
      if (clientFinding) return clientVerdict(clientFinding, what, make);
      if (codes.has('business-error-for-protocol-problem')) {
        return make(
          'protocol-problem-as-business',
          'server',
          'A protocol problem answered as a tool error',
          `The server answered ${what} with a tool error (isError: true), but the request itself was the problem.`,
          'Answer a request the server cannot handle with a JSON-RPC error (-32601 for an unknown method, -32602 for bad params), and keep isError for a tool that ran and failed.',
          ex.errorMessage,
        );
      }
      return make('server-refused', 'server', 'The tool reported a failure', `The tool behind ${what} ran and reported a failure (isError: true): a business error, not a protocol one.`, 'Nothing is wrong with the protocol: check the arguments and the tool\'s own logic; the model read the reason from content.', ex.errorMessage);
    case 'protocol_error': {
      if (codes.has('internal-error-for-bad-request') && clientFinding) return clientVerdict(clientFinding, what, make);
      if (codes.has('protocol-error-looks-like-business')) {
        return make(
          'business-failure-as-protocol',
          'server',
          'A tool failure answered as a protocol error',
          `The server answered ${what} with JSON-RPC error ${ex.errorCode}, which the host shows as a broken call the model cannot read.`,
          'When the tool ran and failed, return a result with isError: true and the reason in content.',
          ex.errorMessage,
        );
      }
      if (clientFinding || ex.errorCode === -32700 || ex.errorCode === -32600) {
        return clientFinding
          ? clientVerdict(clientFinding, what, make)
          : make('client-malformed-request', 'client', 'The client sent a malformed request', `The server could not read ${what} (JSON-RPC error ${ex.errorCode}).`, 'Fix the client so its request is valid JSON-RPC.', ex.errorMessage);
      }
      return make(
        'server-protocol-error',
        'server',
        'The server answered with a protocol error',
        `The server answered ${what} with JSON-RPC error ${ex.errorCode}.`,
        protocolErrorFix(ex.errorCode),
        ex.errorMessage,
      );
    }
  }
}

type Make = (kind: ExchangeVerdictKind, fault: Fault, title: string, sentence: string, fix: string, quote?: string) => ExchangeVerdict;

function transportVerdict(ex: ExchangeSummary, what: string, make: Make): ExchangeVerdict {
  const message = ex.errorMessage;
  switch (ex.transportEvent) {
    case 'unanswered':
      return make('server-never-answered', 'server', 'The server never answered', `The server finished its answer to the HTTP request that carried ${what} without a reply to it.`, 'Make the server answer every request it receives, with a result or a JSON-RPC error carrying the same id.', message);
    case 'client-disconnected':
      return make('host-gave-up', 'client', 'The client gave up', `The client disconnected from ${what} ${after(ex)}before the server answered.`, 'If the server is slow, answer sooner or send progress notifications; if the client gave up too early, raise its timeout.');
    case 'upstream-error':
      return make('transport-failed', 'transport', 'The server could not be reached', `mcpscope could not get an answer to ${what} from the server.`, 'Check that the server is running at the target URL and accepts connections.', message);
    case 'stream-error':
      return make('transport-failed', 'transport', 'The answer stream broke', `The stream carrying the answer to ${what} broke ${after(ex)}before the answer.`, 'Check the server\'s logs for a crash or a timeout that closes streams, and any proxy between that cuts long responses.', message);
    case 'child-exited':
    case 'child-error':
      return make('transport-failed', 'server', 'The server process exited', `The stdio server exited before answering ${what}.`, 'Read the server\'s stderr (captured as log lines) for why it stopped.', message);
    case 'replay-timeout':
      return make('transport-failed', 'transport', 'The replay timed out', `The replayed ${what} got no answer in time.`, 'Check whether the server is still answering; replay again with a fresh session.', message);
    case 'redirected':
      return make('transport-failed', 'transport', 'The server redirected the request', `The server answered ${what} with a redirect instead of an answer.`, 'Point the client (and --target) at the URL the server redirects to.', message);
    default:
      return make('transport-failed', 'transport', 'The transport failed', `The HTTP path of ${what} failed.`, 'Check the server\'s HTTP answer (status and body) in the raw frames and its logs.', message);
  }
}

function clientVerdict(finding: Diagnostic, what: string, make: Make): ExchangeVerdict {
  return make('client-malformed-request', 'client', 'The client sent a malformed request', `${capitalize(what)} was malformed: ${firstSentence(finding.message)}`, fixOf(finding.message, 'Fix the request the client sends.'));
}

function protocolErrorFix(code: number | undefined): string {
  switch (code) {
    case -32601:
      return 'Call a method the server offers (see its capabilities in initialize), or implement the method in the server.';
    case -32602:
      return 'Send params that match the method (for tools/call, arguments that match the tool\'s inputSchema).';
    case -32002:
      return 'Read a resource the server lists (resources/list), or fix the URI.';
    default:
      return 'Read the error message and the server\'s logs: the server reported that it could not handle this request.';
  }
}

function evidenceOf(input: ExchangeVerdictInput, diagnosticCodes: string[]): ExchangeVerdict['evidence'] {
  const ex = input.exchange;
  const doorRecordIds = new Set<number>();
  for (const seq of ex.frameSeqs) {
    const id = input.http?.get(seq)?.requestId;
    if (id !== undefined) doorRecordIds.add(id);
  }
  const evidence: ExchangeVerdict['evidence'] = { frameSeqs: [...ex.frameSeqs], doorRecordIds: [...doorRecordIds], diagnosticCodes };
  if (ex.latencyMs !== undefined) evidence.latencyMs = ex.latencyMs;
  return evidence;
}

/** "tools/call suggest_gifts #12" */
function describe(ex: ExchangeSummary): string {
  const name = ex.method === undefined ? 'the message' : ex.target !== undefined ? `${ex.method} ${ex.target}` : ex.method;
  return `${name} #${ex.id}`;
}

function after(ex: ExchangeSummary): string {
  return ex.latencyMs === undefined ? '' : `after ${Math.round(ex.latencyMs)} ms, `;
}

/** The first sentence of a finding's message (its "what is wrong"). */
function firstSentence(message: string): string {
  const end = message.search(/\.(\s|$)/);
  return end === -1 ? message : message.slice(0, end + 1);
}

/** The rest of a finding's message (its "how to fix"), or a fallback when it has one sentence. */
function fixOf(message: string, fallback: string): string {
  const first = firstSentence(message);
  const rest = message.slice(first.length).trim();
  return rest === '' ? fallback : rest;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
