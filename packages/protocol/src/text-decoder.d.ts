// packages/protocol compiles without DOM or Node typings, so that a stray `fetch`, `setTimeout`
// or `Buffer` fails to type-check. TextDecoder is the one global it needs; both browsers and Node
// provide it, so only its shape is declared here.
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
