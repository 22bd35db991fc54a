// `npx tsx <this file>` from inside any checkout of the project (this one, or an older one in a git worktree): the
// REST table's empty-shop rows (bench/run.ts) for that checkout's code, quickly — webshop.json and
// ratings_summary.json of an empty shop against the bare Koa route, 50 connections, 8 s each, on a fresh embedded
// database. An empty shop needs no seeding, so an older version's start-up migrations do not run over thousands of
// reviews first: this is how two versions are compared minutes apart on the same machine ("no regression" checks).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
const tree = process.cwd();
const { default: autocannon } = await import(resolve(tree, 'node_modules/autocannon/autocannon.js'));
const { startEmbeddedDatabase } = await import(resolve(tree, 'server/db/embedded.ts'));
const dir = mkdtempSync(join(tmpdir(), 'cmp-'));
const database = await startEmbeddedDatabase(dir);
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/target.ts', database.uri, 'cmp'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const line = await new Promise<string>((ok) => createInterface({ input: child.stdout! }).once('line', ok));
const { servicePort, barePort } = JSON.parse(line);
const base = `http://127.0.0.1:${servicePort}`;
const res = await fetch(`${base}/admin/api/webshops`, {
  method: 'POST',
  headers: { authorization: 'Bearer bench-admin-token-0123456789abcdef', 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'P', url: 'https://p.example/' }),
});
// The operator API's answer: the shop, with its API code.
const { id, code } = (await res.json()) as { id: number; code: string };
const out: Record<string, number> = {};
for (const [name, url] of [
  ['bare', `http://127.0.0.1:${barePort}/bare.json`],
  ['webshop.json', `${base}/api/1.0/webshop.json?id=${id}&code=${code}`],
  ['ratings_summary.json', `${base}/api/1.0/ratings_summary.json?id=${id}&code=${code}`],
] as const) {
  await fetch(url);
  const r = await autocannon({ url, connections: 50, duration: 8 });
  out[name] = Math.round(r.requests.average);
}
console.log(JSON.stringify(out), 'webshop/bare', (out['webshop.json']! / out.bare!).toFixed(2));
child.kill('SIGTERM');
await database.stop();
process.exit(0);
