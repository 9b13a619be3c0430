/** What the dashboard API routes read from. */
import type { CaptureStore } from '../capture/capture-store.js';
import type { CaptureQuery } from '../capture/capture-query.js';

export interface ApiDeps {
  store: CaptureStore;
  query: CaptureQuery;
}
