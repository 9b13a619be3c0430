/**
 * The capture store's public face for tools outside apps/proxy (benchmarks, the export helper):
 * the store, the pipeline that feeds it, filtered queries, rebuild, and the API routes over them.
 */
export { CaptureStore, sortKey, type WriteSet } from './capture-store.js';
export { CapturePipeline, type CaptureBatch } from './capture-pipeline.js';
export { REPLAY_PAGE } from './replay.js';
export { SNAPSHOT_EVERY } from './deriver-snapshot.js';
export { CaptureQuery, SCAN_TIME_MS } from './capture-query.js';
export { rebuildDerived } from './rebuild.js';
export { Retention, readRetentionState, type RetentionLimits } from './retention.js';
export { exchangeRoutes } from '../api/routes/exchanges.js';
export { frameRoutes } from '../api/routes/frames.js';
export { apiErrorHandler } from '../api/error-handler.js';
