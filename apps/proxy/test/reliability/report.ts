/**
 * Vitest side of the reliability report: a test names the fault and the expected behaviour,
 * states what it observed (before asserting, so a failure still shows what happened), and the
 * row's pass/FAIL comes from the test's own result.
 */
import { afterAll, expect, onTestFinished } from 'vitest';
import { PENDING_REPORT_FILE, REPORT_FILE, writeReportSection, type ReportRow } from './report-file.js';

export interface RowHandle {
  observed(text: string): void;
}

export function reliabilityReport(id: string, title: string): { row(fault: string, expected: string): RowHandle } {
  const rows: ReportRow[] = [];
  // A pending-merge file reports beside the gate's report, not in it, until the lead enables it.
  const pending = expect.getState().testPath?.includes('.pending-merge.') ?? false;
  afterAll(() => writeReportSection(id, title, rows, pending ? PENDING_REPORT_FILE : REPORT_FILE));
  return {
    row(fault, expected) {
      const row: ReportRow = { fault, expected, observed: '(nothing observed: the test stopped before it got there)', result: 'not run' };
      rows.push(row);
      onTestFinished(({ task }) => {
        row.result = task.result?.state === 'pass' ? 'pass' : 'FAIL';
      });
      return { observed: (text) => void (row.observed = text) };
    },
  };
}
