import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claudeWidgetDomain, sha256Hex, widgetOriginMatcher } from '../src/index.js';

describe('widget origins as hosts compute them', () => {
  it('hashes like node:crypto SHA-256, across block boundaries and non-ASCII text', () => {
    for (const text of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(1000), 'https://exämple.com/mcp ✓']) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it("reproduces Claude's worked example: the connector URL's hash, path included", () => {
    // alpic-ai/skybridge#704: the hash Claude expects for https://mcp.fiji.so/mcp, and the one it
    // rejected (the same host hashed without the /mcp path).
    expect(claudeWidgetDomain('https://mcp.fiji.so/mcp')).toBe('0a438b56404e81245c5485e96ce8e529.claudemcpcontent.com');
    expect(claudeWidgetDomain('https://mcp.fiji.so/')).toBe('e33d66d6360c03b5787778d5d39cb0c6.claudemcpcontent.com');
  });

  it('matches the exact Claude origin for a known server URL, and any oaiusercontent.com subdomain for ChatGPT', () => {
    const claude = widgetOriginMatcher('claude', 'https://mcp.fiji.so/mcp');
    expect(claude('https://0a438b56404e81245c5485e96ce8e529.claudemcpcontent.com')).toBe(true);
    expect(claude('https://e33d66d6360c03b5787778d5d39cb0c6.claudemcpcontent.com')).toBe(false);
    const chatgpt = widgetOriginMatcher('chatgpt', undefined);
    expect(chatgpt('https://my-app.web-sandbox.oaiusercontent.com')).toBe(true);
    expect(chatgpt('https://evil.example.com')).toBe(false);
  });
});
