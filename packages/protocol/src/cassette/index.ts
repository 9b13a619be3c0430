/**
 * A capture as a test: the script of a capture (cassette.ts), matching live requests to captured
 * ones (matcher.ts), and comparing a re-run answer with the captured one (compare.ts, with what
 * counts as volatile in volatile.ts). Shared by `mcpscope mock`, `mcpscope verify` and the
 * dashboard's "Re-run failed calls".
 */
export { buildCassette, describe as describeCall } from './cassette.js';
export type { Cassette, CassetteCall, CassetteEvent, CassetteNotification, CassetteProblem, CassettePush, CassetteSession, CassetteStep, PushTrigger } from './cassette.js';
export { triggerKey } from './cassette-pushes.js';
export { answerAsCaptured } from './captured-replies.js';
export { canonicalJson, meaningfulParams, requestKey, similarity } from './canonical.js';
export { CassetteMatcher, MatchCursor, MOCK_METHOD_NOT_CAPTURED, MOCK_NO_MATCH, answerable } from './matcher.js';
export type { MatchMode, MatchResult, NearestCall } from './matcher.js';
export { comparableStatus, compareOutcomes, firstDifference, outcomeOf } from './compare.js';
export type { CallOutcome, Comparison, CompareOptions, Difference, OutcomeStatus, Verdict } from './compare.js';
export { DEFAULT_IGNORED_PATHS, VOLATILE_KEYS, VOLATILE_MARK, maskVolatile, maskVolatileText, parseIgnore } from './volatile.js';
export type { VolatileOptions } from './volatile.js';
export { detectVolatilePaths, widenIndexes } from './volatile-detect.js';
export type { AnswerPair, VolatilePath } from './volatile-detect.js';
