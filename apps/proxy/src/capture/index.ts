/**
 * The capture store's public face: the record port the tap feeds, the store, the pipeline that
 * feeds it, filtered queries and rebuild (the API routes: ../api).
 */
export { LARGE_BODY_BYTES, type LargeBody, type RecordPort } from './record-port.js';
export { CaptureStore, sortKey, type WriteSet } from './capture-store.js';
export { CapturePipeline, type CaptureBatch } from './capture-pipeline.js';
export { REDERIVE_PAGE, SNAPSHOT_EVERY, derive } from './capture-engine.js';
export { OP, OP_VALUES, TICK_SQL, TickOps, applyTickOps } from './tick-ops.js';
export { TemplateWriter } from './templates.js';
export { CaptureQuery, SCAN_TIME_MS } from './capture-query.js';
export { rebuildDerived } from './rebuild.js';
export { Retention, readRetentionState, type RetentionLimits } from './retention.js';
export { openSqlite } from './sqlite.js';
