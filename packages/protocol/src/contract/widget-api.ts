/**
 * The widget preview's API contract (dashboard ⇄ proxy), beside contract/api.ts:
 * - `GET /api/widget/:exchangeId` → WidgetPreview: what a host would render for a captured
 *   tools/call — the tool's widget, the call's arguments and result as recorded, the resource.
 * - `POST /api/widget/:exchangeId/read` → WidgetPreview, after reading the widget resource now
 *   through mcpscope's own session with the upstream (captured like any traffic).
 * - `POST /api/widget/:exchangeId/call` WidgetCallRequest → WidgetCallResponse: a tool call the
 *   widget made, sent to the upstream and linked to the exchange whose widget made it; refused
 *   (403 `widget_call_refused`) when a host would refuse it, and (403 `widget_consent_needed`)
 *   until the user allowed the widget to call that tool on this server.
 * - `POST /api/widget/:exchangeId/consent` WidgetConsentRequest → WidgetConsent: the user allows
 *   (in the dashboard, never the widget) the call's widget to call a tool on the live server.
 *
 * - `GET /api/widget/:exchangeId?resource=ID` → WidgetPreview with the HTML of that resources/read
 *   (one `…/read` made: the playground's "live server" source), when it reads the call's widget.
 * - `GET /api/widget/:exchangeId/results` → WidgetCapturedResult[]: other captured calls of the same
 *   tool (the playground flips between two to see a shape change).
 * - `PUT /api/widget/:exchangeId/file` WidgetFileRequest → WidgetFileState: the user names a local
 *   HTML file that stands in for the call's widget resource, read-only and watched;
 *   `DELETE …/file` stops it. `GET /api/widget-files/events` streams WidgetFileEvent lines
 *   (NDJSON) as a watched file changes.
 *
 * A call imported from a file is inert: its preview uses only that file's traffic and sends
 * nothing (`canCall: false`, read and call answer 409 `imported_session`).
 */
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import type { JsonObject, JsonValue } from '../model/json-rpc.js';
import type { Severity } from '../diagnostics/diagnostic.js';
import type { WidgetBridge, WidgetDeclaration } from '../widget/widget-declaration.js';
import type { WidgetCsp, WidgetPermissions } from '../widget/widget-resource.js';

export interface WidgetLint {
  code: string;
  severity: Severity;
  message: string;
  path?: string;
  /** The exchange the finding is about (the call, the tools/list, the resources/read). */
  exchangeId?: string;
}

export interface WidgetResourceView {
  uri: string;
  /** The resources/read exchange the HTML comes from (absent for a local file). */
  exchangeId?: string;
  /**
   * Where the HTML came from. `captured`: a client read it on the live server; `imported`: a
   * resources/read in the same imported file as the call (`importedFrom`); `read-now`: mcpscope
   * read it for this preview; `file`: a local file the user named stands in for the resource
   * (`file`). A live call never takes HTML from an imported capture, nor an imported call from
   * anywhere but its own file (a local file the user named is neither: it serves either).
   */
  source: 'captured' | 'imported' | 'read-now' | 'file';
  /** The local file the HTML was read from (source `file`): its path and how often it changed. */
  file?: WidgetFileState;
  /** The file the HTML was imported from (source `imported`). */
  importedFrom?: string;
  /** Read in the call's own session (else its conversation, else any live session; an imported call: any session of its file). */
  sameSession: boolean;
  /** Read in the call's conversation (its own session included). */
  sameConversation: boolean;
  mimeType?: string;
  html: string;
  /** UTF-8 bytes of the HTML. */
  bytes: number;
  csp: WidgetCsp;
  permissions: WidgetPermissions;
  domain?: string;
  prefersBorder?: boolean;
}

export interface WidgetPreview {
  exchangeId: string;
  toolName: string;
  declaration: WidgetDeclaration;
  /** The tool as the tools/list the preview read describes it, with that exchange's id. */
  tool?: JsonObject;
  toolsListId?: string;
  call: {
    status: ExchangeStatus;
    /** `params.arguments` exactly as the client sent them (`{}` when absent). */
    arguments: JsonObject;
    /** The result exactly as the server answered, when it did. */
    result?: JsonObject;
    error?: { code: number; message: string; data?: JsonValue };
  };
  /** Absent when the capture has no resources/read of the widget (then POST …/read). */
  resource?: WidgetResourceView;
  /** Why the resource could not be had (a failed read, no HTML). */
  resourceProblem?: string;
  lints: WidgetLint[];
  /** Whether calls from the widget can be sent (false in `mcpscope open`, and for a call imported from a file). */
  canCall: boolean;
  /** Why nothing can be sent, when `canCall` is false. */
  cannotCallReason?: string;
  /** The live server the widget's calls go to (a URL, or `stdio: CMD`), when `canCall`. */
  server?: string;
  /** The tools the user allowed this widget to call on `server` (the rest ask first). */
  allowedTools?: string[];
  /** The widget sandbox listener's port (the dashboard frames `http://<label>.localhost:PORT/sandbox`). */
  sandboxPort?: number;
}

export interface WidgetCallRequest {
  /** How the widget asked: the MCP Apps bridge (`tools/call`) or `window.openai.callTool`. */
  bridge: WidgetBridge;
  name: string;
  arguments?: JsonObject;
  /** `fresh`: mcpscope's own session labelled "widget preview" (one per captured call's widget); `session`: the call's own session. */
  mode: 'fresh' | 'session';
}

export interface WidgetCallResponse {
  exchange: ExchangeSummary;
  sessionKey: string;
  result?: JsonObject;
  error?: { code: number; message: string; data?: JsonValue };
}

/** The user's answer to "this widget wants to call `tool` on the server": only an allow is stored. */
export interface WidgetConsentRequest {
  tool: string;
}

export interface WidgetConsent {
  /** The widget resource the consent is for (with the server: per widget, per tool). */
  uri: string;
  server: string;
  allowedTools: string[];
}

/** Another captured call of the same tool, as the playground offers it beside the open one. */
export interface WidgetCapturedResult {
  exchangeId: string;
  startTs: number;
  status: ExchangeStatus;
  arguments: JsonObject;
  result?: JsonObject;
  error?: { code: number; message: string; data?: JsonValue };
}

/** The body of `PUT …/file`: an absolute path to an .html or .htm file. */
export interface WidgetFileRequest {
  path: string;
}

/** A local file standing in for a widget resource. */
export interface WidgetFileState {
  /** The widget resource it stands in for (`*`: every widget, from `--widget-file PATH`). */
  uri: string;
  /** The file as resolved (symbolic links followed). */
  path: string;
  /** 1 when first read, +1 each time its content changed. */
  version: number;
  bytes: number;
  /** Why the last change could not be read (the previous content is still served). */
  problem?: string;
}

/** One line of `GET /api/widget-files/events`. */
export type WidgetFileEvent = { type: 'changed'; file: WidgetFileState } | { type: 'stopped'; uri: string };
