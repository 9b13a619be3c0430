/**
 * A loopback npm registry for the `@mcpscope` scope, serving one package from its tarball: the
 * stand-in for `@mcpscope/sqlite-addon` as it is published beside mcpscope. npm asks it for that
 * scope only, through npm's per-scope registry setting (`@mcpscope:registry`, docs.npmjs.com
 * "scope": "Associating a scope with a registry"); every other package still comes from the
 * registry npm is configured with. It answers the two requests an install makes: the packument
 * (`GET /@scope%2fname`) and the tarball its `dist.tarball` names.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScopeRegistry {
  url: string;
  /** The environment setting that sends the scope's requests here. */
  env: Record<string, string>;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function scopeRegistry(tarball: string): Promise<ScopeRegistry> {
  const bytes = readFileSync(tarball);
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { name: string; version: string };
  const scope = manifest.name.split('/')[0]!;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    requests.push(path);
    if (path === `/${manifest.name}`) {
      const dist = {
        tarball: `${url}/tarballs/${manifest.version}.tgz`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      };
      const packument = { name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: { ...manifest, dist } } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    } else if (path === `/tarballs/${manifest.version}.tgz`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { [`npm_config_${scope}:registry`]: `${url}/` },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
