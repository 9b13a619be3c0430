/**
 * The MCP revisions mcpscope knows, and which methods and notifications each one defines, in
 * which direction, with the names of their schema definitions. Pure data (no Ajv), so the
 * deriver's lints can use it in the browser too.
 */

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

/** What a server assumes when nothing says otherwise (Streamable HTTP without the header). */
export const DEFAULT_REVISION: Revision = '2025-03-26';
export const MODERN_REVISION: Revision = '2026-07-28';

export function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (REVISIONS as readonly string[]).includes(value);
}

/** `from`/`until` bound the revisions a method exists in (inclusive). */
interface Span {
  from?: Revision;
  until?: Revision;
}

export interface MethodInfo extends Span {
  /** Who sends the request: the client, the server, or both. */
  sender: 'client' | 'server' | 'both';
  request: string;
  result: string;
}

export interface NotificationInfo extends Span {
  sender: 'client' | 'server' | 'both';
  definition: string;
}

const LEGACY_END: Revision = '2025-11-25';

export const METHODS: Record<string, MethodInfo> = {
  initialize: { sender: 'client', request: 'InitializeRequest', result: 'InitializeResult', until: LEGACY_END },
  ping: { sender: 'both', request: 'PingRequest', result: 'EmptyResult', until: LEGACY_END },
  'tools/list': { sender: 'client', request: 'ListToolsRequest', result: 'ListToolsResult' },
  'tools/call': { sender: 'client', request: 'CallToolRequest', result: 'CallToolResult' },
  'resources/list': { sender: 'client', request: 'ListResourcesRequest', result: 'ListResourcesResult' },
  'resources/templates/list': { sender: 'client', request: 'ListResourceTemplatesRequest', result: 'ListResourceTemplatesResult' },
  'resources/read': { sender: 'client', request: 'ReadResourceRequest', result: 'ReadResourceResult' },
  'resources/subscribe': { sender: 'client', request: 'SubscribeRequest', result: 'EmptyResult', until: LEGACY_END },
  'resources/unsubscribe': { sender: 'client', request: 'UnsubscribeRequest', result: 'EmptyResult', until: LEGACY_END },
  'prompts/list': { sender: 'client', request: 'ListPromptsRequest', result: 'ListPromptsResult' },
  'prompts/get': { sender: 'client', request: 'GetPromptRequest', result: 'GetPromptResult' },
  'completion/complete': { sender: 'client', request: 'CompleteRequest', result: 'CompleteResult' },
  'logging/setLevel': { sender: 'client', request: 'SetLevelRequest', result: 'EmptyResult', until: LEGACY_END },
  'sampling/createMessage': { sender: 'server', request: 'CreateMessageRequest', result: 'CreateMessageResult', until: LEGACY_END },
  'roots/list': { sender: 'server', request: 'ListRootsRequest', result: 'ListRootsResult', until: LEGACY_END },
  'elicitation/create': { sender: 'server', request: 'ElicitRequest', result: 'ElicitResult', from: '2025-06-18', until: LEGACY_END },
  'tasks/get': { sender: 'both', request: 'GetTaskRequest', result: 'GetTaskResult', from: '2025-11-25', until: '2025-11-25' },
  'tasks/result': { sender: 'both', request: 'GetTaskPayloadRequest', result: 'GetTaskPayloadResult', from: '2025-11-25', until: '2025-11-25' },
  'tasks/list': { sender: 'both', request: 'ListTasksRequest', result: 'ListTasksResult', from: '2025-11-25', until: '2025-11-25' },
  'tasks/cancel': { sender: 'both', request: 'CancelTaskRequest', result: 'CancelTaskResult', from: '2025-11-25', until: '2025-11-25' },
  'server/discover': { sender: 'client', request: 'DiscoverRequest', result: 'DiscoverResult', from: '2026-07-28' },
  'subscriptions/listen': { sender: 'client', request: 'SubscriptionsListenRequest', result: 'SubscriptionsListenResult', from: '2026-07-28' },
};

export const NOTIFICATIONS: Record<string, NotificationInfo> = {
  'notifications/initialized': { sender: 'client', definition: 'InitializedNotification', until: LEGACY_END },
  'notifications/cancelled': { sender: 'both', definition: 'CancelledNotification' },
  'notifications/progress': { sender: 'both', definition: 'ProgressNotification' },
  'notifications/message': { sender: 'server', definition: 'LoggingMessageNotification' },
  'notifications/resources/updated': { sender: 'server', definition: 'ResourceUpdatedNotification' },
  'notifications/resources/list_changed': { sender: 'server', definition: 'ResourceListChangedNotification' },
  'notifications/tools/list_changed': { sender: 'server', definition: 'ToolListChangedNotification' },
  'notifications/prompts/list_changed': { sender: 'server', definition: 'PromptListChangedNotification' },
  'notifications/roots/list_changed': { sender: 'client', definition: 'RootsListChangedNotification', until: LEGACY_END },
  'notifications/tasks/status': { sender: 'both', definition: 'TaskStatusNotification', from: '2025-11-25', until: '2025-11-25' },
  'notifications/elicitation/complete': { sender: 'server', definition: 'ElicitationCompleteNotification', from: '2025-11-25', until: '2025-11-25' },
  'notifications/subscriptions/acknowledged': { sender: 'server', definition: 'SubscriptionsAcknowledgedNotification', from: '2026-07-28' },
};

export function inRevision(span: Span, rev: Revision): boolean {
  const i = REVISIONS.indexOf(rev);
  return (span.from === undefined || i >= REVISIONS.indexOf(span.from)) && (span.until === undefined || i <= REVISIONS.indexOf(span.until));
}

export function methodIn(method: string, rev: Revision): MethodInfo | undefined {
  const info = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  return info && inRevision(info, rev) ? info : undefined;
}

export function notificationIn(method: string, rev: Revision): NotificationInfo | undefined {
  const info = Object.hasOwn(NOTIFICATIONS, method) ? NOTIFICATIONS[method] : undefined;
  return info && inRevision(info, rev) ? info : undefined;
}

/** True when `side` may send this request or notification. */
export function senderAllowed(info: { sender: 'client' | 'server' | 'both' }, side: 'client' | 'server'): boolean {
  return info.sender === 'both' || info.sender === side;
}

/** Older revisions are ordered before newer ones. */
export function revisionAtLeast(rev: Revision, other: Revision): boolean {
  return REVISIONS.indexOf(rev) >= REVISIONS.indexOf(other);
}
