/**
 * Keeps the first DOOR_BODY_LIMIT bytes of a body that streams past, and counts all of it, so a
 * 10 MB token request costs the door 64 KiB. Which bodies are kept at all: those of OAuth
 * endpoints and metadata documents (MCP bodies are frames already), with their secret fields
 * redacted before anything is stored.
 */
import { DOOR_BODY_LIMIT, type DoorBody, type DoorRole } from '@mcpscope/protocol';
import { redactBodySecrets, redactQuerySecretsInText } from '../redaction/redact-secrets.js';

export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;

  constructor(private readonly limit = DOOR_BODY_LIMIT) {}

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.size += bytes.length;
    if (this.kept >= this.limit) return;
    const piece = bytes.length <= this.limit - this.kept ? bytes : bytes.subarray(0, this.limit - this.kept);
    this.chunks.push(Buffer.from(piece));
    this.kept += piece.length;
  }

  /**
   * The body as recorded: UTF-8 (invalid bytes replaced), cut at the limit, with secret fields
   * redacted and secret query values in any URL it quotes (a redirect page names the callback
   * URL with its code).
   */
  body(): DoorBody {
    const text = Buffer.concat(this.chunks, this.kept).toString('utf8');
    return { text: redactQuerySecretsInText(redactBodySecrets(text, false)), size: this.size, truncated: this.size > this.kept };
  }
}

/** Roles whose bodies the door keeps: OAuth traffic and the documents that describe it. */
const WITH_BODIES: ReadonlySet<DoorRole> = new Set<DoorRole>([
  'protected-resource-metadata',
  'authorization-server-metadata',
  'openid-configuration',
  'server-card',
  'registration',
  'authorization',
  'token',
  'oauth-other',
]);

export function keepsBodies(role: DoorRole): boolean {
  return WITH_BODIES.has(role);
}
