
import { Agent, request } from 'undici';
import { startTestMcpscope } from '/work/wt/door/apps/proxy/test/helpers.ts';
(async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wrap_gift', arguments: { gift: 'socks', paper: 'red' } } });
  const results: Record<string, number[]> = { on: [], off: [] };
  for (let round = 0; round < 3; round++) {
    for (const door of [true, false]) {
      const app = await startTestMcpscope({ door });
      const agent = new Agent({ connections: 4 });
      const init = await request(app.mcpUrl, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }) });
      const sid = init.headers['mcp-session-id'] as string; await init.body.dump();
      const send = async () => { const r = await request(app.mcpUrl, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid }, body }); await r.body.dump(); };
      for (let i = 0; i < 50; i++) await send();
      const cpu0 = process.cpuUsage(); const t0 = performance.now();
      for (let i = 0; i < 600; i++) await send();
      const cpu = process.cpuUsage(cpu0); const wall = performance.now() - t0;
      results[door ? 'on' : 'off']!.push((cpu.user + cpu.system) / 600);
      console.log(`door ${door ? 'on ' : 'off'}: ${((cpu.user + cpu.system) / 600).toFixed(1)} µs CPU per call (whole process: client, tap, demo upstream, store), wall ${(wall / 600).toFixed(2)} ms`);
      await agent.close(); await app.close();
    }
  }
  console.log(JSON.stringify(results));
})();
