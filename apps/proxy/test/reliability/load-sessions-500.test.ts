// 500 concurrent SDK sessions, each holding a GET stream open: the tap's upstream pool has no cap,
// so open streams never starve other clients (a 256-connection cap once stalled it at 252).
import { describe } from 'vitest';
import { reliabilityReport } from './report.js';
import { sessionsLoadTest } from './sessions-load.js';

const report = reliabilityReport('31-load-sessions-500', 'Concurrent sessions: 500');
describe('500 sessions at once', () => sessionsLoadTest(500, report));
