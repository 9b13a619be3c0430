/**
 * Stream taps: each chunk goes to the client first, then a copy is parsed for the capture.
 * The tap is a pull-based ReadableStream, so it reads from the upstream only as fast as the
 * client's socket drains: backpressure carries end to end (unlike `tee()`, which reads at the
 * pace of the faster branch and queues without limit for the other). It also sees how a stream
 * ends: completed, broken upstream, or cancelled by the client.
 */
import { SseParser, type SseEvent } from '@mcpscope/protocol';

export interface StreamHooks {
  onChunk(chunk: Uint8Array): void;
  onEnd(): void;
  /** The upstream broke mid-stream. */
  onError(error: unknown): void;
  /** The client went away; the upstream read is cancelled too (that is the cancellation). */
  onCancel(reason: unknown): void;
}

export function tapStream(source: ReadableStream<Uint8Array>, hooks: StreamHooks): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          hooks.onError(error);
          controller.error(error);
          return;
        }
        if (result.done) {
          hooks.onEnd();
          controller.close();
          return;
        }
        controller.enqueue(result.value);
        hooks.onChunk(result.value);
      },
      async cancel(reason) {
        hooks.onCancel(reason);
        await reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

export interface SseCaptureHooks {
  onEvent(event: SseEvent): void;
  onError(error: unknown): void;
  onCancel(reason: unknown): void;
}

/** Forwards SSE bytes unchanged and reports each complete event as it passes. */
export function sseTap(source: ReadableStream<Uint8Array>, hooks: SseCaptureHooks): ReadableStream<Uint8Array> {
  const parser = new SseParser();
  const emit = (items: ReturnType<SseParser['push']>) => {
    for (const item of items) if (item.type === 'event') hooks.onEvent(item);
  };
  return tapStream(source, {
    onChunk: (chunk) => emit(parser.push(chunk)),
    onEnd: () => emit(parser.end()),
    onError: hooks.onError,
    onCancel: hooks.onCancel,
  });
}

export interface BodyCaptureHooks {
  onBody(text: string): void;
  onError(error: unknown, partial: string): void;
  onCancel(reason: unknown): void;
}

/** Forwards a body unchanged and reports its whole text when it ends. */
export function bodyTap(source: ReadableStream<Uint8Array>, hooks: BodyCaptureHooks): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let text = '';
  return tapStream(source, {
    onChunk: (chunk) => {
      text += decoder.decode(chunk, { stream: true });
    },
    onEnd: () => hooks.onBody(text + decoder.decode()),
    onError: (error) => hooks.onError(error, text),
    onCancel: hooks.onCancel,
  });
}
