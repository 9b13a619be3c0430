/** A status as the timeline words it ("tool error", not `business_error`). */
import type { ExchangeStatus } from '@mcpscope/protocol';
import { STATUS_LOOKS } from '../ui/status.js';

export const statusLabel = (status: ExchangeStatus): string => STATUS_LOOKS[status].label;
