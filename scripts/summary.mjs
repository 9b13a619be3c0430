// Prints one closing line, "N passed, N failed, N skipped", from Vitest and Playwright JSON
// reports and the gate's failed steps that have none (GATE_UNREPORTED_FAILURES). Exits 1 when
// anything failed, when a report is missing or unreadable, or when nothing passed at all (a run
// that tested nothing is not a green run).
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2).filter((f) => !f.includes('*'));
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = 0;

for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`summary: cannot read ${file}: ${err.message}`);
    broken++;
    continue;
  }
  if ('numPassedTests' in report) {
    // Vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    // A suite that failed to load has no tests but is a failure.
    failed += (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
  } else if (report.stats && 'expected' in report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if ((report.errors ?? []).length > 0) failed += report.errors.length;
  } else {
    console.error(`summary: ${file} is not a Vitest or Playwright report`);
    broken++;
  }
}
const expected = ['unit-protocol.json', 'unit-proxy-heavy.json', 'unit-proxy-light.json', 'unit-web.json', 'release.json', 'e2e.json'];
for (const name of expected) {
  if (!files.some((f) => f.endsWith(name))) {
    console.error(`summary: missing report ${name}`);
    broken++;
  }
}
failed += broken;
// Steps of the gate that no report covers (scripts/test.sh `unreported`), each one failure.
const unreported = Number(process.env.GATE_UNREPORTED_FAILURES ?? 0);
if (unreported > 0) console.error(`summary: ${unreported} step(s) with no report failed (build, typecheck, lint or the bench smoke run: see "✗ failed" above)`);
failed += unreported;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
