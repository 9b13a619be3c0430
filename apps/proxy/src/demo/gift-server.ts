/**
 * The embedded demo MCP server: the gift-ideas server of the course mcpscope grew from, on the
 * official SDK's low-level `Server` so that it can answer each of the three outcomes an inspector
 * must tell apart: a result, a business error (`isError: true`) and a protocol error (-32602).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { catalogSummary, suggestGifts } from './gift-catalog.js';
import { GIFT_WIDGET_HTML, GIFT_WIDGET_META, GIFT_WIDGET_RESOURCE, GIFT_WIDGET_URI } from './gift-widget.js';

export const CATALOG_URI = 'gifts://catalog';

const SuggestArgs = z.object({
  occasion: z.string().min(1),
  budget: z.number().positive(),
  recipient: z.string().optional(),
});

const WrapArgs = z.object({ gift: z.string().min(1), steps: z.number().int().min(1).max(20).optional() });

const TOOLS = [
  {
    name: 'suggest_gifts',
    title: 'Suggest gifts',
    description: 'Suggests up to three gifts for an occasion within a budget in US dollars.',
    inputSchema: {
      type: 'object',
      properties: {
        occasion: { type: 'string', description: 'What the gift is for, e.g. "birthday".' },
        budget: { type: 'number', exclusiveMinimum: 0, description: 'Most you want to spend, in dollars.' },
        recipient: { type: 'string', description: 'Who the gift is for.' },
      },
      required: ['occasion', 'budget'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        gifts: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, price: { type: 'number' } },
            required: ['name', 'price'],
          },
        },
      },
      required: ['gifts'],
    },
    annotations: { readOnlyHint: true },
    // The gift cards widget, for MCP Apps hosts and for ChatGPT (Apps SDK).
    _meta: {
      ui: { resourceUri: GIFT_WIDGET_URI },
      'openai/outputTemplate': GIFT_WIDGET_URI,
      'openai/toolInvocation/invoking': 'Finding gift ideas…',
      'openai/toolInvocation/invoked': 'Gift ideas ready',
    },
  },
  {
    name: 'wrap_gift',
    title: 'Wrap a gift',
    description: 'Wraps a gift step by step, reporting progress as it goes.',
    inputSchema: {
      type: 'object',
      properties: {
        gift: { type: 'string' },
        steps: { type: 'integer', minimum: 1, maximum: 20 },
      },
      required: ['gift'],
    },
    // The widget's Wrap button calls it: ChatGPT needs this; MCP Apps hosts allow it by default.
    _meta: { 'openai/widgetAccessible': true },
  },
] as const;

export interface GiftServerOptions {
  /** Delay between progress steps of `wrap_gift`, in ms. */
  stepDelayMs?: number;
}

export function createGiftServer(options: GiftServerOptions = {}): Server {
  const stepDelayMs = options.stepDelayMs ?? 150;
  const server = new Server(
    { name: 'gift-ideas', title: 'Gift ideas (mcpscope demo)', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t })) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (name === 'suggest_gifts') {
      const parsed = SuggestArgs.safeParse(args ?? {});
      if (!parsed.success) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for suggest_gifts: ${z.prettifyError(parsed.error)}`);
      }
      const { occasion, budget, recipient } = parsed.data;
      const gifts = suggestGifts(occasion, budget).map((g) => ({ name: g.name, price: g.price }));
      if (gifts.length === 0) {
        return {
          isError: true,
          content: [{ type: 'text', text: `No gift fits a budget of $${budget}; the cheapest gift costs $${catalogSummary().minPrice}.` }],
        };
      }
      const who = recipient ? ` for ${recipient}` : '';
      const lines = gifts.map((g) => `- ${g.name} ($${g.price})`).join('\n');
      return {
        structuredContent: { gifts },
        content: [{ type: 'text', text: `Gift ideas${who} (${occasion}, up to $${budget}):\n${lines}` }],
      };
    }
    if (name === 'wrap_gift') {
      const parsed = WrapArgs.safeParse(args ?? {});
      if (!parsed.success) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for wrap_gift: ${z.prettifyError(parsed.error)}`);
      }
      const steps = parsed.data.steps ?? 4;
      const token = request.params._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await sleep(stepDelayMs, extra.signal);
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: steps, message: `Step ${step} of ${steps}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `${parsed.data.gift} is wrapped with a bow.` }] };
    }
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: CATALOG_URI, name: 'gift_catalog', title: 'Gift catalogue', mimeType: 'application/json', description: 'Categories, brands and the price range of the catalogue.' },
      GIFT_WIDGET_RESOURCE,
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri === GIFT_WIDGET_URI) {
      return { contents: [{ uri: GIFT_WIDGET_URI, mimeType: GIFT_WIDGET_RESOURCE.mimeType, text: GIFT_WIDGET_HTML, _meta: GIFT_WIDGET_META }] };
    }
    if (request.params.uri !== CATALOG_URI) {
      throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
    }
    return { contents: [{ uri: CATALOG_URI, mimeType: 'application/json', text: JSON.stringify(catalogSummary()) }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: 'gift_congrats_style',
        title: 'Warm congratulation style',
        description: 'A system-style message that sets a warm, congratulating tone for the gift note.',
        arguments: [{ name: 'recipient', description: 'Who is being congratulated', required: false }],
      },
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== 'gift_congrats_style') {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    }
    const who = request.params.arguments?.recipient ?? 'the recipient';
    return {
      description: 'Warm congratulation style',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `You write short, warm congratulation notes to accompany a gift. Address ${who} by name, celebrate the occasion sincerely, keep it under 60 words, and never mention the price.`,
          },
        },
      ],
    };
  });

  return server;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
