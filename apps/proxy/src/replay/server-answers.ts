/**
 * Answers for a server's requests when nobody is at the dashboard (`--server-answers FILE`,
 * `PUT /api/drive/answers`): a sampling reply, an elicitation's action, a roots list. What the
 * user left out still waits for the dashboard. An elicitation accepted here gets the form's own
 * starting values (the schema's defaults, else the simplest values it accepts): the same form
 * the dashboard would show, submitted untouched.
 */
import { formModel, fromForm, initialForm, isJsonObject, type JsonObject, type RequestMessage, type ServerAnswerDefaults } from '@mcpscope/protocol';
import { fail, ok, type Result } from './replay-errors.js';

export function parseServerAnswers(value: unknown): Result<ServerAnswerDefaults> {
  const bad = (why: string) => fail<ServerAnswerDefaults>('bad_request', `Server answers: ${why}. Expected { "sampling"?: { "text", "model"? } | "decline", "elicitation"?: "accept" | "decline" | "cancel", "roots"?: [{ "uri", "name"? }] }.`);
  if (!isJsonObject(value)) return bad('not a JSON object');
  const out: ServerAnswerDefaults = {};
  for (const key of Object.keys(value)) if (!['sampling', 'elicitation', 'roots'].includes(key)) return bad(`unknown key "${key}"`);
  const { sampling, elicitation, roots } = value;
  if (sampling === 'decline') out.sampling = 'decline';
  else if (isJsonObject(sampling) && typeof sampling.text === 'string' && (sampling.model === undefined || typeof sampling.model === 'string')) {
    out.sampling = { text: sampling.text, ...(typeof sampling.model === 'string' ? { model: sampling.model } : {}) };
  } else if (sampling !== undefined) return bad('"sampling" must be "decline" or { "text": "…" }');
  if (elicitation === 'accept' || elicitation === 'decline' || elicitation === 'cancel') out.elicitation = elicitation;
  else if (elicitation !== undefined) return bad('"elicitation" must be "accept", "decline" or "cancel"');
  if (Array.isArray(roots) && roots.every((r) => isJsonObject(r) && typeof r.uri === 'string' && (r.name === undefined || typeof r.name === 'string'))) {
    out.roots = roots.map((r) => ({ uri: String((r as JsonObject).uri), ...(typeof (r as JsonObject).name === 'string' ? { name: String((r as JsonObject).name) } : {}) }));
  } else if (roots !== undefined) return bad('"roots" must be a list of { "uri", "name"? }');
  return ok(out);
}

/** The result (or error) the defaults give `request`, or undefined when it waits for the user. */
export function defaultAnswer(request: RequestMessage, defaults: ServerAnswerDefaults): { result: JsonObject } | 'decline' | undefined {
  switch (request.method) {
    case 'sampling/createMessage': {
      const sampling = defaults.sampling;
      if (sampling === undefined || sampling === 'decline') return sampling;
      return { result: { role: 'assistant', content: { type: 'text', text: sampling.text }, model: sampling.model ?? 'mcpscope-default-answer', stopReason: 'endTurn' } };
    }
    case 'elicitation/create': {
      const action = defaults.elicitation;
      if (action === undefined || action === 'decline') return action;
      if (action === 'cancel' || request.params?.mode === 'url') return { result: { action } };
      const model = formModel(request.params?.requestedSchema);
      return { result: { action, content: fromForm(model, initialForm(model)).value } };
    }
    case 'roots/list':
      return defaults.roots === undefined ? undefined : { result: { roots: defaults.roots } };
    default:
      return undefined;
  }
}
