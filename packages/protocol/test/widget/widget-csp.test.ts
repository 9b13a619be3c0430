// The widget's Content-Security-Policy: built from what the resource declares, never widened by a
// hostile entry, and each blocked load described in the declaring standard's words.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeCspViolation, widgetCspDirectives, widgetCspHeader } from '../../src/index.js';

const empty = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

describe('widgetCspHeader', () => {
  it('allows nothing external by default: no frames, no base, no plugins, connect only to self', () => {
    const header = widgetCspHeader(empty);
    expect(header).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:;");
    expect(header).toContain("connect-src 'self';");
    expect(header).toContain("frame-src 'none'");
    expect(header).toContain("object-src 'none'");
    expect(header).toContain("base-uri 'none'");
  });

  it('puts resource domains on every static-asset directive and connect domains on connect-src', () => {
    const d = widgetCspDirectives({ ...empty, resourceDomains: ['https://cdn.example.com'], connectDomains: ['https://api.example.com', 'wss://rt.example.com'], frameDomains: ['https://embed.example.com'] });
    for (const name of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src', 'worker-src']) {
      expect(d.find((x) => x.startsWith(name))).toContain('https://cdn.example.com');
    }
    expect(d.find((x) => x.startsWith('connect-src'))).toBe("connect-src 'self' https://api.example.com wss://rt.example.com");
    expect(d.find((x) => x.startsWith('frame-src'))).toBe('frame-src https://embed.example.com');
  });

  it('no declared entry can add a directive or a keyword (property)', () => {
    const list = fc.array(fc.string({ maxLength: 40 }), { maxLength: 6 });
    fc.assert(
      fc.property(list, list, list, list, (resourceDomains, connectDomains, frameDomains, baseUriDomains) => {
        const directives = widgetCspHeader({ resourceDomains, connectDomains, frameDomains, baseUriDomains }).split('; ');
        expect(directives.map((d) => d.split(' ')[0])).toEqual(['default-src', 'script-src', 'style-src', 'img-src', 'font-src', 'media-src', 'worker-src', 'connect-src', 'frame-src', 'object-src', 'base-uri']);
        // The only quoted keywords are the fixed ones.
        const keywords = directives.flatMap((d) => d.match(/'[^']*'/g) ?? []);
        for (const k of keywords) expect(["'self'", "'unsafe-inline'", "'unsafe-eval'", "'none'"]).toContain(k);
      }),
    );
  });
});

describe('describeCspViolation', () => {
  it('names the list the load needed, in the standard the resource used', () => {
    const script = { blockedURI: 'https://cdn.example.com/app.js', effectiveDirective: 'script-src-elem' };
    expect(describeCspViolation(script, { declaredBy: ['apps-sdk'] })).toMatch(/^the widget loaded https:\/\/cdn\.example\.com\/app\.js \(a script\), which is not in openai\/widgetCSP resource_domains\./);
    expect(describeCspViolation(script, { declaredBy: ['mcp-apps'] })).toContain('which is not in _meta.ui.csp.resourceDomains.');
    expect(describeCspViolation(script, { declaredBy: ['mcp-apps', 'apps-sdk'] })).toContain('not in openai/widgetCSP resource_domains nor in _meta.ui.csp.resourceDomains');
    expect(describeCspViolation({ blockedURI: 'https://api.example.com/x', effectiveDirective: 'connect-src' }, { declaredBy: ['apps-sdk'] })).toContain('(a network request (fetch, XHR or WebSocket)), which is not in openai/widgetCSP connect_domains');
    expect(describeCspViolation(script, { declaredBy: [] })).toContain('but the resource declares no CSP: add its origin to _meta.ui.csp.resourceDomains (or openai/widgetCSP resource_domains)');
  });
});
