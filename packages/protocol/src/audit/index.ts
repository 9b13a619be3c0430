/** The readiness audit: checks, host profiles and evidence (see audit-types.ts). */
export type { AuditCall, AuditCheck, AuditEvidence, AuditNotification, AuditOptions, AuditReport, CheckOutcome, CheckResult, CheckSource, EvidenceLink, Finding, HostId, HostReadiness, ListedTool, SourcedFigure, Verdict } from './audit-types.js';
export { HOST_IDS } from './audit-types.js';
export { AUDIT_CHECKS, runAudit } from './audit-registry.js';
export { HOST_PROFILES, hostProfile, type HostProfile } from './host-profiles.js';
export { AUDIT_METHODS, AUDIT_NOTIFICATIONS, auditCallOf, auditNotificationOf, evidenceFromFrames } from './audit-evidence.js';
export { claudeWidgetDomain, widgetOriginMatcher } from './widget-origin.js';
export { sha256Hex } from './sha256.js';
