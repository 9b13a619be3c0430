// 200 concurrent SDK sessions through one proxy (below the upstream connection pool's 256; the
// 500-session variant is in load-sessions-500.pending-merge.test.ts until the tap's pool is fixed).
import { describe } from 'vitest';
import { reliabilityReport } from './report.js';
import { sessionsLoadTest } from './sessions-load.js';

const report = reliabilityReport('30-load-sessions', 'Concurrent sessions');
describe('many sessions at once', () => sessionsLoadTest(200, report));
