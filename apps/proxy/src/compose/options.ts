import type { ServerAnswerDefaults } from '@mcpscope/protocol';
import type { OtlpConfig } from '../otlp/otlp-config.js';

/**
 * What mcpscope is built from: the options of the `mcpscope` command (DESIGN.md's contract), as
 * the composition root reads them. Every field is optional here; the command fills in defaults.
 */
export interface McpscopeOptions {
  /** The upstream MCP endpoint; neither this nor `stdio`: the embedded demo server. */
  target?: string;
  /** A stdio server's command line, spawned and served at /mcp. */
  stdio?: string;
  /** Tap port (0: any free port). */
  port?: number;
  /** Dashboard port (0: any free port). */
  uiPort?: number;
  /** Widget sandbox port (0 or absent: any free port). */
  widgetPort?: number;
  /** `--widget-file`: local HTML files served as widget resources (`*`: every widget), absolute paths. */
  widgetFiles?: { uri: string; path: string }[];
  /** Tap bind address. */
  host?: string;
  /** Dashboard bind address (loopback unless `dangerouslyExposeDashboard`). */
  uiHost?: string;
  /** Capture file (`:memory:` allowed); the data directory's capture.db when absent. */
  db?: string;
  /** Dashboard token; when absent, the one kept beside the capture file (stable-token.ts), or random for an in-memory capture. */
  token?: string;
  /** The tunnel URL clients reach the tap by. */
  publicUrl?: string;
  dangerouslyExposeDashboard?: boolean;
  /** More Host names the tap accepts. */
  allowHosts?: string[];
  /** Origins browser pages may use the tap from, on a loopback Host (`--allow-origin`). */
  allowOrigins?: string[];
  /** Retention: keep at most this many frames (the oldest go first). */
  maxFrames?: number;
  /** Retention: keep at most this many bytes of frame text. */
  maxBytes?: number;
  /** Offer replay_exchange at the dashboard's `/mcp` (`--allow-agent-replay`); off by default. */
  allowAgentReplay?: boolean;
  /** Answers for the server's requests to sessions mcpscope drives, when nobody is at the dashboard. */
  serverAnswers?: ServerAnswerDefaults;
  /** Live OTLP export of one span per exchange (`--otlp URL`, OTEL_EXPORTER_OTLP_*), resolved. */
  otlp?: OtlpConfig;
  /** Intercept rules to start with (`--rule`, `--rules FILE`), each `FILTER => ACTION [COUNT]`, already checked. */
  rules?: string[];
}
