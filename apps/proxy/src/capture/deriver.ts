/**
 * The one way the proxy builds a CaptureDeriver: with the schema validator, shared by live
 * capture, rebuild and import, so all three derive the same diagnostics from the same frames.
 * Compiled validators are cached inside it, so one instance serves every deriver.
 */
import { CaptureDeriver, type CaptureDeriverDeps } from '@mcpscope/protocol';
import { createValidator } from '@mcpscope/protocol/validate';

let validator: ReturnType<typeof createValidator> | undefined;

export function createDeriver(): CaptureDeriver {
  return new CaptureDeriver(deriverDeps());
}

/** What every deriver is built with, for code that builds its own (a cassette for mock and verify). */
export function deriverDeps(): CaptureDeriverDeps {
  validator ??= createValidator();
  return { validator };
}

/** A deriver continuing from a snapshot; throws when the snapshot cannot be used. */
export function restoreDeriver(state: unknown): CaptureDeriver {
  validator ??= createValidator();
  return CaptureDeriver.restore(state, { validator });
}
