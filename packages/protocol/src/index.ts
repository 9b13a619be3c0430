/**
 * @mcpscope/protocol — pure, browser-safe MCP protocol logic shared by the proxy and the dashboard.
 * No I/O: no `node:` imports, sockets, timers or storage. Values in, values out.
 */
export type { Direction, Frame, FrameInput, FrameKind, HttpInfo, RuleMark, StoredText, Transport } from './model/frame.js';
export { bodyBytes, rawLength } from './model/frame.js';
export { utf8Length } from './model/utf8.js';
export { terminalLine, terminalText } from './model/terminal-text.js';
export type {
  BatchMessage,
  ErrorMessage,
  InvalidMessage,
  JsonObject,
  JsonRpcId,
  JsonValue,
  Message,
  NotificationMessage,
  RequestMessage,
  ResponseMessage,
} from './model/json-rpc.js';
export { MAX_JSON_DEPTH, classifyText, classifyValue, idKey, isJsonObject, isJsonRpcId } from './model/json-rpc.js';
export type { ExchangeStatus, ExchangeSummary, Requester } from './model/exchange.js';
export { ERROR_STATUSES, EXCHANGE_STATUSES, exchangeOrderKey, isTerminal } from './model/exchange.js';
export { targetOf } from './model/target.js';
export { DEFAULT_MAX_EVENT_CHARS, SseParser, formatSseEvent } from './wire/sse.js';
export type { SseComment, SseEvent, SseItem, SseParserOptions } from './wire/sse.js';
export { deeperThan, stringifyJson } from './model/json-depth.js';
export { childPath, formatPath, isWithin, joinPath, matchesPath, parseJsonPath, parsePathPattern, pathFromPointer, pathMatches } from './model/json-path.js';
export type { JsonPathResult, PathPattern, PathSegment, PathStep, PatternParse, PatternStep } from './model/json-path.js';
export { LineSplitter, MAX_LINE_BYTES } from './wire/lines.js';
export type { LineItem } from './wire/lines.js';
export { ExchangeTracker } from './pairing/exchange-tracker.js';
export { SERVER_TO_CLIENT_REQUESTS, callsBehind, isServerToClientRequest, isToolCall, openAt, requestsDuring } from './pairing/causality.js';
export type { CallSpan, CausalBasis, CausalLink, ServerRequestSpan } from './pairing/causality.js';
export { TRANSPORT_EVENTS, isTransportEvent, parseTransportFrame, transportFrameText } from './model/transport-frame.js';
export { authorizationMessage, isAuthorizationAnswer } from './model/authorization-answer.js';
export { followedRedirects, markRedirectedNotifications } from './pairing/followed-redirects.js';
export type { TransportEvent } from './model/transport-frame.js';
export { SessionTracker, clientLabel } from './session/session-tracker.js';
export { IMPORTED_SESSION_PREFIX, importedFileName, importedFilePrefix, importedSessionKey, isImportedSession } from './session/imported-session.js';
export type { Era, SessionSummary } from './session/session-summary.js';
export { SESSIONLESS_KEY_PREFIX, isSessionlessKey } from './session/session-summary.js';
export { isOwnSession, ownSessionKind, type OwnSessionKind } from './session/own-session.js';
export type { ConversationChurn, ConversationSummary, EraEvent, EraLane, EraStep, JoinEvidence } from './conversation/conversation-summary.js';
export { JOIN_EVIDENCE } from './conversation/conversation-summary.js';
export { DEFAULT_CONVERSATION_BOUNDS, MAX_CONVERSATIONS, type ConversationBounds } from './conversation/conversation-book.js';
export { hostName, OPENAI_SESSION_META } from './conversation/host-hints.js';
export { diagnosticHelp } from './diagnostics/help.js';
export { HOST_RULE_BREAKS, hostRuleBreak } from './diagnostics/host-rule-breaks.js';
export { conversationVerdict } from './verdict/conversation-verdict.js';
export { EXCHANGE_VERDICT_KINDS, exchangeVerdict, type ExchangeVerdict, type ExchangeVerdictInput, type ExchangeVerdictKind, type Fault } from './verdict/verdict.js';
export { UNFLAGGED_ERROR_RULES, unflaggedError } from './derive/unflagged-error.js';
export type {
  ApiError,
  ExchangeDetail,
  ExchangesPage,
  ExchangeWindowPage,
  ExchangeStatusCounts,
  FramesPage,
  FrameView,
  HealthResponse,
  CurlRequest,
  CurlResponse,
  DashboardInfo,
  TapHostsResponse,
  ExportPreview,
  ImportFormat,
  ImportProblem,
  ImportReport,
  ImportResponse,
  OtlpStatus,
  CaptureStatus,
  CaptureMark,
  MarksPage,
  RedactionHit,
  RedactionReport,
  ReplayFailure,
  ReplayInput,
  ServerAnswerDefaults,
  DriveSendRequest,
  DriveViolation,
  DriveSendResponse,
  DriveRefusal,
  DriveList,
  DriveLists,
  DriveOwnResponse,
  ReplayInputAnswer,
  ReplayInputsResponse,
  ReplayToolsResponse,
  ReplayLinks,
  ReplayRequest,
  ReplayResponse,
  RequestsPage,
  RequestsWindowPage,
  SessionsWindowPage,
  ConversationsWindowPage,
  RetentionInfo,
  ServerEvent,
  SessionsPage,
  ConversationsPage,
} from './contract/api.js';
export { DETAIL_RAW_LIMIT, FRAME_RAW_LIMIT, toFrameView } from './contract/api.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { CaptureDeriver, DERIVER_STATE_VERSION } from './derive/capture-deriver.js';
export type { CaptureDeriverDeps, Derived, DeriverState } from './derive/capture-deriver.js';
export type { CompileResult, CompiledSchema, MessageCheck, SchemaIssue, SchemaIssueCode, ValidatorPort } from './diagnostics/validator-port.js';
export { DEFAULT_REVISION, MODERN_REVISION, REVISIONS, isRevision } from './revisions/revisions.js';
export type { Revision } from './revisions/revisions.js';
export type {
  Filter,
  FilterContext,
  FilterError,
  FilterField,
  FilterOp,
  FilterOperatorInfo,
  FilterParseResult,
} from './filter/types.js';
export { parseFilter } from './filter/parse.js';
export { printFilter } from './filter/print.js';
export { parseDuration, parseSize } from './filter/values.js';
export { describeFilter } from './filter/describe.js';
export { compileFilter, matchesExchange } from './filter/match.js';
export { answerableFromSummary } from './filter/summary-answerable.js';
export { compileDoorFilter, doorText, fieldsDoorCannotMatch } from './filter/door-match.js';
export type { DoorPredicate, ExchangePredicate } from './filter/fields.js';
export { FILTER_OPERATORS } from './filter/operators.js';
export type { DoorAnswer, DoorBody, DoorEnd, DoorPeer, DoorRecord, DoorRefusalSample, DoorRefusals } from './door/door-record.js';
export {
  DOOR_BODY_LIMIT,
  DOOR_FRAME_SEQ_LIMIT,
  DOOR_REFUSAL_PATH_CHARS,
  DOOR_REFUSAL_SAMPLES,
  clientAddress,
  doorPathname,
  doorQuery,
  requestedOrigin,
  requestedUrl,
} from './door/door-record.js';
export type { DoorRole, LearnedEndpoints, ProbeReason } from './door/door-classify.js';
export { PROBE_LABELS, ROLE_LABELS, doorRole, isBrowserAccept, isPreflight, probeReason } from './door/door-classify.js';
export type { ClientEvidence, DoorClient, GroupOptions } from './door/door-clients.js';
export { CLIENT_GAP_MS, groupDoorClients, identityOf } from './door/door-clients.js';
export type { AuthChallenge } from './door/www-authenticate.js';
export { bearerChallenge, parseWwwAuthenticate } from './door/www-authenticate.js';
export type { ConnectionFlow, FlowFacts, FlowPhase, FlowStep, FlowVerdict, StepColour, VerdictKind } from './door/flow/flow-types.js';
export { FLOW_PHASES, NO_FACTS, PHASE_LABELS } from './door/flow/flow-types.js';
export { buildConnectionFlow, buildConnectionFlows } from './door/flow/build-flow.js';
export type { WidgetCallRequest, WidgetCallResponse, WidgetCapturedResult, WidgetConsent, WidgetConsentRequest, WidgetFileEvent, WidgetFileRequest, WidgetFileState, WidgetLint, WidgetPreview, WidgetResourceView } from './contract/widget-api.js';
export type { CallVerdict, WidgetBridge, WidgetDeclaration } from './widget/widget-declaration.js';
export {
  MCP_APP_MIME,
  MCP_APPS_EXTENSION,
  OPENAI_OUTPUT_TEMPLATE,
  OPENAI_VISIBILITY,
  OPENAI_WIDGET_ACCESSIBLE,
  SKYBRIDGE_MIME,
  WIDGET_MIME_TYPES,
  mcpAppsVisibility,
  widgetCallVerdict,
  widgetOfTool,
} from './widget/widget-declaration.js';
export type { WidgetCsp, WidgetPermissions, WidgetResource } from './widget/widget-resource.js';
export { OPENAI_WIDGET_CSP, mergeCsp, widgetContent, widgetResourceOf, wireCsp } from './widget/widget-resource.js';
export type { CspViolation } from './widget/widget-csp.js';
export { describeCspViolation, isSafeSource, widgetCspDirectives, widgetCspHeader } from './widget/widget-csp.js';
export { LARGE_META_BYTES, toolWidgetFindings, widgetNeverReadFinding, widgetResourceFindings, widgetResultFindings } from './widget/widget-lints.js';
export {
  CassetteMatcher,
  DEFAULT_IGNORED_PATHS,
  MOCK_METHOD_NOT_CAPTURED,
  MOCK_NO_MATCH,
  MatchCursor,
  VOLATILE_KEYS,
  VOLATILE_MARK,
  answerAsCaptured,
  answerable,
  buildCassette,
  canonicalJson,
  comparableStatus,
  compareOutcomes,
  describeCall,
  detectVolatilePaths,
  firstDifference,
  maskVolatile,
  maskVolatileText,
  meaningfulParams,
  outcomeOf,
  parseIgnore,
  requestKey,
  similarity,
  triggerKey,
  widenIndexes,
} from './cassette/index.js';
export type {
  CallOutcome,
  Cassette,
  CassetteCall,
  CassetteEvent,
  CassetteNotification,
  CassetteProblem,
  CassettePush,
  CassetteSession,
  CassetteStep,
  CompareOptions,
  Comparison,
  Difference,
  MatchMode,
  MatchResult,
  NearestCall,
  OutcomeStatus,
  PushTrigger,
  Verdict,
  VolatileOptions,
  AnswerPair,
  VolatilePath,
} from './cassette/index.js';
export * from './audit/index.js';
export { formModel, inRange, lowest } from './form/form-model.js';
export type { ArrayNode, BooleanNode, ChoiceNode, ChoiceOption, FormField as FormModelField, FormNode, JsonNode, MultiNode, NumberNode, ObjectNode, TextNode } from './form/form-model.js';
export { fromForm, initialForm, isFormObject, toForm } from './form/form-values.js';
export type { FormField, FormObject, FormProblem, FormValue } from './form/form-values.js';
export { expandTemplate, promptArgumentsSchema, templateSchema, templateVariables } from './form/form-sources.js';
export type { InterceptRule, RuleAction, RuleActionType, RuleCount, RuleParseResult } from './intercept/rule-types.js';
export { DEFAULT_ERROR_MESSAGE, DEFAULT_IS_ERROR_TEXT, parseRule } from './intercept/rule-parse.js';
export { printAction, printCount, printDuration, printRule } from './intercept/rule-print.js';
export { DEFAULT_PAUSE_DEADLINE_MS, MAX_INFLATE_BYTES, MAX_RULE_WAIT_MS, RULE_ACTIONS } from './intercept/rule-defaults.js';
export { ruleSubject, type RuleSubject } from './intercept/rule-subject.js';
export type { HeldFrameView, InterceptResponse, Intervention, Reaction, ReactionKind, RuleView, StoredRule } from './intercept/intervention.js';
export type { RegressionTestPlan } from './contract/regression-api.js';
