/**
 * Intercept in the dashboard: the Rules panel (rules written in the filter language with an
 * action, toggled and removed), the frames pause rules hold (edited in Monaco, released or
 * dropped before their deadline), and the marks on what a rule changed or made.
 */
export { InterceptHost, RulesButton } from './intercept-host.js';
export { InterceptMark } from './InterceptMark.js';
export { InterventionCard } from './InterventionCard.js';
