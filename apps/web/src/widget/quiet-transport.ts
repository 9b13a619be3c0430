/**
 * ext-apps' PostMessageTransport, two behaviours changed, nothing else: it does not
 * `console.debug()` every message it receives and sends, and it posts only to the sandbox's own
 * origin (the official one posts to `*`). AppBridge, the bridge protocol, is untouched.
 *
 * Why: with DevTools (or any inspector) attached, every debug call serializes the message for the
 * console — measured with a widget sending 1,000 notifications a second (300 passed by the sandbox):
 * the dashboard's frame time p95 went from 533 ms to 100 ms without the logging (bench/
 * widget-flood.ts) — and a developer inspecting a widget has DevTools open. A 5 MB widget would
 * also be copied into the console. The messages are still parsed with the SDK's own
 * JSONRPCMessageSchema, as the official transport does.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

export class QuietPostMessageTransport extends PostMessageTransport {
  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.source) return;
    const parsed = JSONRPCMessageSchema.safeParse(event.data);
    if (parsed.success) this.onmessage?.(parsed.data);
    else if ((event.data as { jsonrpc?: unknown } | null)?.jsonrpc === '2.0') this.onerror?.(new Error(`Invalid JSON-RPC message received: ${parsed.error.message}`));
  };

  constructor(
    private readonly target: Window,
    private readonly source: MessageEventSource,
    private readonly targetOrigin: string,
  ) {
    super(target, source);
  }

  override async start(): Promise<void> {
    window.addEventListener('message', this.listener);
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.target.postMessage(message, this.targetOrigin);
  }

  override async close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}
