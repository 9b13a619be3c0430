/** What the dashboard API routes read from. */
import type { CaptureReader } from '../capture/capture-reader.js';
import type { CaptureQuery } from '../capture/capture-query.js';

export interface ApiDeps {
  store: CaptureReader;
  query: CaptureQuery;
}
