// One official-SDK client session through the tap, run by the Node under test (plain JavaScript,
// no build step): connect over Streamable HTTP, list the tools, call suggest_gifts, print the
// result as JSON. The SDK is the copy npm installed beside mcpscope, so this also proves that
// the package's dependencies resolve as installed.
// usage: node sdk-call.mjs MCP_URL PACKAGE_DIR
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [mcpUrl, packageDir] = process.argv.slice(2);
const fromPackage = createRequire(join(packageDir, 'package.json'));
const load = (subpath) => import(pathToFileURL(fromPackage.resolve(`@modelcontextprotocol/sdk/${subpath}`)).href);
const { Client } = await load('client/index.js');
const { StreamableHTTPClientTransport } = await load('client/streamableHttp.js');

const client = new Client({ name: 'mcpscope-package-smoke', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: 'Ada Lovelace' } });
await client.close();
console.log(JSON.stringify({ tools: tools.map((t) => t.name), result }));
