/**
 * InterceptRule → canonical text. For every rule parseRule produces, parseRule(printRule(r))
 * deep-equals r.
 */
import { printFilter } from '../filter/print.js';
import { quote } from '../filter/values.js';
import { DEFAULT_PAUSE_DEADLINE_MS } from './rule-defaults.js';
import type { InterceptRule, RuleAction, RuleCount } from './rule-types.js';

export function printRule(rule: InterceptRule): string {
  const count = printCount(rule.count);
  return `${printFilter(rule.filter)} => ${printAction(rule.action)}${count ? ` ${count}` : ''}`;
}

export function printAction(action: RuleAction): string {
  switch (action.type) {
    case 'pause':
      return `pause${action.on === 'response' ? ' response' : ''}${action.deadlineMs === DEFAULT_PAUSE_DEADLINE_MS ? '' : ` for ${printDuration(action.deadlineMs)}`}`;
    case 'delay':
      return `delay ${printDuration(action.ms)}`;
    case 'error':
      return `error ${action.code} ${quote(action.message)}`;
    case 'is-error':
      return `is-error ${quote(action.text)}`;
    case 'replace':
      return `replace ${JSON.stringify(action.result)}`;
    case 'inflate':
      return `inflate ${printSize(action.bytes)}`;
    case 'drop':
      return 'drop';
    case 'http':
      return ['http', String(action.status), ...Object.entries(action.headers).map(([name, value]) => `${name}=${isBare(value) ? value : quote(value)}`)].join(' ');
    case 'cut-stream':
      return `cut-stream after ${action.afterEvents}`;
    case 'notify':
      return `notify ${isBare(action.method) && !action.method.startsWith('{') && !action.method.startsWith('[') ? action.method : quote(action.method)}`;
  }
}

export function printCount(count: RuleCount): string {
  switch (count.type) {
    case 'always':
      return '';
    case 'times':
      return count.n === 1 ? 'once' : `${count.n} times`;
    case 'percent':
      return `${count.p}%`;
  }
}

/** Whole seconds as `90s`, anything else in milliseconds. */
export function printDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function printSize(bytes: number): string {
  if (bytes > 0 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024}mb`;
  if (bytes > 0 && bytes % 1024 === 0) return `${bytes / 1024}kb`;
  return String(bytes);
}

/** A value a rule can carry as a bare word: no spaces or quotes, not empty. */
function isBare(value: string): boolean {
  return value !== '' && !/[\s"]/.test(value);
}
