/**
 * Shown while nothing has been captured: exactly what to do next. The tap URL to copy, how to
 * point the SDK, Claude or ChatGPT (through a tunnel) at it, and, in demo mode, a button that
 * sends a real sample call through the tap so the timeline fills within seconds.
 */
import { useEffect, useState } from 'react';
import type { DashboardInfo } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { CopyButton } from '../ui/CopyButton.js';
import { ConnectionChecklist } from '../front-door/ConnectionChecklist.js';

function Snippet({ text }: { text: string }) {
  return (
    <div className="snippet">
      <pre>{text}</pre>
      <CopyButton text={text} />
    </div>
  );
}

export function FirstRun({ api }: { api: ApiClient }) {
  const [info, setInfo] = useState<DashboardInfo | undefined>();
  const [sample, setSample] = useState<'idle' | 'sending' | 'sent' | string>('idle');
  useEffect(() => {
    api.info().then(setInfo, () => setInfo(undefined));
  }, [api]);
  const mcpUrl = info?.mcpUrl ?? '<the tap URL printed in the terminal>';
  const tapPort = info ? new URL(info.tapUrl).port : 'TAP_PORT';
  const path = info ? new URL(info.mcpUrl).pathname : '/mcp';

  const send = async () => {
    setSample('sending');
    try {
      await api.sampleCall();
      setSample('sent');
    } catch (err) {
      setSample((err as Error).message);
    }
  };

  return (
    <section className="first-run" data-testid="first-run">
      <h1>Nothing captured yet</h1>
      <p>
        mcpscope records traffic that passes through its <strong>tap</strong>. Point your MCP client at the tap instead of at the server
        {info && !info.demo && <> (<span className="mono">{info.upstreamUrl}</span>)</>}; every frame then shows up here as it happens.
      </p>
      <h2>1. Copy the tap URL</h2>
      <div className="tap-url" data-testid="tap-url">
        <code>{mcpUrl}</code>
        {info && <CopyButton text={info.mcpUrl} label="Copy URL" />}
      </div>
      {info?.demo && (
        <div className="demo-box">
          <p>
            No <code>--target</code> was given, so the tap forwards to the embedded <strong>gift-ideas demo server</strong>. Try it now:
          </p>
          <button type="button" className="primary" data-testid="sample-call" disabled={sample === 'sending'} onClick={send}>
            {sample === 'sending' ? 'Sending…' : 'Send a sample call'}
          </button>
          {sample === 'sent' && <span className="muted"> Sent — the rows appear in the timeline.</span>}
          {sample !== 'idle' && sample !== 'sending' && sample !== 'sent' && <span className="error-text"> {sample}</span>}
        </div>
      )}
      <h2>Connection checklist</h2>
      <p className="muted">The host that is connecting, step by step, as it happens.</p>
      <ConnectionChecklist />
      <h2>2. Point a client at it</h2>
      <h3>MCP SDK (TypeScript)</h3>
      <Snippet
        text={`import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('${mcpUrl}')));
console.log(await client.listTools());`}
      />
      <h3>Claude Code</h3>
      <Snippet text={`claude mcp add --transport http mcpscope ${mcpUrl}`} />
      <h3>ChatGPT or Claude.ai (they need a public HTTPS URL)</h3>
      <p>Expose the tap through a tunnel, then use the tunnel’s URL with the path <code>{path}</code>:</p>
      <Snippet text={`cloudflared tunnel --url http://127.0.0.1:${tapPort}\n# or: ngrok http ${tapPort}`} />
      <p>
        In ChatGPT: Settings → Apps &amp; Connectors → Advanced → Developer mode, then <em>Create</em> a connector with
        <code> https://&lt;your-tunnel&gt;{path}</code>. In Claude.ai: Settings → Connectors → Add custom connector.
      </p>
      <p data-testid="public-url-advice">
        Start mcpscope with <code>--public-url https://&lt;your-tunnel&gt;</code> (or let <code>--tunnel cloudflared</code> start the tunnel and set
        it): the tap refuses requests for any Host it does not know, and a tunnel delivers its own name; the same URL points the server’s OAuth
        discovery back through the tap. Forgot it? The refused Host shows above with a button that accepts it for this run.
      </p>
      <p className="muted">The dashboard itself stays on 127.0.0.1 behind its token; only the tap is exposed.</p>
    </section>
  );
}
