/**
 * The verdict on a conversation that stopped short of a tool call: the host listed the tools and
 * never called one. Nothing failed on the wire, so no exchange has a verdict; the conversation
 * does. Pure: a conversation's summary in, a verdict (or none) out.
 */
import type { ConversationSummary } from '../conversation/conversation-summary.js';
import type { ExchangeVerdict } from './verdict.js';

export function conversationVerdict(c: ConversationSummary): ExchangeVerdict | undefined {
  const { toolsList, toolsCall } = c.churn;
  if (toolsList === 0 || toolsCall > 0) return undefined;
  return {
    kind: 'host-never-called',
    fault: 'client',
    title: 'The host never sent the call',
    sentence: `${c.host} listed the tools ${toolsList === 1 ? 'once' : `${toolsList} times`} in this conversation and never called one: the model did not choose a tool, or the host would not offer it.`,
    fix: 'Make each tool say when to use it in its description, set its annotations (the Readiness view lists what each host requires), and ask for the tool by name to see whether the host calls it.',
    evidence: { frameSeqs: [], doorRecordIds: [], diagnosticCodes: [] },
  };
}
