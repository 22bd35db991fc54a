// Widget benchmark: widget_html throughput next to a bare Koa JSON route in the same run (target: at least half
// of it, thanks to the page cache), and the bytes per layout. Writes the "Widget" section of BENCHMARKS.md.
// Run: npx tsx bench/widget.ts   (BENCH_SECONDS=10 by default; BENCH_MONGODB_URI to use a running MongoDB)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '../server/db/index.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { ReviewStore } from '../server/reviews/store.js';
import { WebshopStore } from '../server/webshops/store.js';
import { load, type LoadResult } from './load.js';
import { bytesTable } from './widget-bytes.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';
import { Caches } from '../server/cache.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Each target runs in this many slices, taking turns, so that load from elsewhere on the box hits all alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REVIEWS = 200;

async function startTarget(uri: string, dbName: string) {
  // bench/target.ts: the service and a bare Koa route in one process of their own, apart from the load tool.
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/target.ts', uri, dbName], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`bench target exited with ${code}`)));
  });
  return { ports: JSON.parse(line) as { servicePort: number; barePort: number }, stop: () => child.kill('SIGTERM') };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'widget-bench-'));
  const external = process.env.BENCH_MONGODB_URI;
  const embedded = external ? undefined : await startEmbeddedDatabase(dir);
  const uri = external ?? embedded!.uri;
  const dbName = `widget_bench_${Date.now()}`;
  const { client, db } = await connect(uri, dbName);
  const database = embedded?.kind ?? 'external MongoDB';

  const shops = new WebshopStore(db, new Caches({ ttlMs: 0, maxBytes: 1 }).cache('webshops'));
  const reviews = new ReviewStore(db);
  await shops.ensureIndexes();
  await reviews.ensureIndexes();
  const shop = await shops.create({ name: 'Bench Bikes', url: 'https://bench.example/', hero_color: '#e8590c' });
  for (let i = 0; i < REVIEWS; i++) {
    await reviews.create(shop.id, {
      name: `Customer ${i}`,
      email: `c${i}@example.com`,
      rating: (i % 5) + 1,
      language: 'en',
      comment: `Review ${i}: quick delivery and friendly service, the bike was well packed and arrived a day early.`,
      created: new Date(Date.now() - i * 3_600_000),
    });
  }

  const target = await startTarget(uri, dbName);
  const base = `http://127.0.0.1:${target.ports.servicePort}`;
  const browser = { 'accept-encoding': 'gzip, deflate, br' };
  const widget = (query: string) => ({ path: `/webshops/widget_html?id=${shop.id}&${query}`, headers: browser });
  const targets: Parameters<typeof load>[0][] = [
    { name: 'bare Koa JSON route', url: `http://127.0.0.1:${target.ports.barePort}/bare.json` },
    { name: 'widget_html new_default slider (brotli)', url: base, request: () => widget('layout=new_default') },
    { name: 'widget_html new_button-stars (brotli)', url: base, request: () => widget('layout=new_button-stars') },
    {
      name: 'widget_html, 9 layouts × 2 themes (brotli)',
      url: base,
      request: (n) => widget(`layout=${LAYOUTS_FOR_MIX[n % 9]}&theme=${n % 2 ? 'dark' : 'light'}`),
    },
  ];
  const rounds: LoadResult[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) rounds[i]!.push(await load(t, Math.max(1, Math.round(SECONDS / ROUNDS))));
  }
  target.stop();
  const results = rounds.map(combine);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(48)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors} non-2xx ${r.non2xx}`,
    );
  }

  await db.dropDatabase().catch(() => undefined);
  await client.close();
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
  writeSection(results, database);
}

/** One target's slices as one result: mean req/s, median p50, worst p99, all errors. */
function combine(slices: LoadResult[]): LoadResult {
  const sorted = slices.map((s) => s.p50).sort((a, b) => a - b);
  return {
    name: slices[0]!.name,
    rps: Math.round(slices.reduce((sum, s) => sum + s.rps, 0) / slices.length),
    p50: sorted[Math.floor(sorted.length / 2)]!,
    p99: Math.max(...slices.map((s) => s.p99)),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    non2xx: slices.reduce((sum, s) => sum + s.non2xx, 0),
  };
}

const LAYOUTS_FOR_MIX = [
  'new_default',
  'new_badges',
  'new_button-text',
  'new_button-stars',
  'new_button_logo',
  'new_button_logo-score',
  'new_button_logo-sm',
  'new_balloon',
  'modern',
];

function writeSection(results: LoadResult[], database: string) {
  const bare = results[0]!.rps;
  const rows = results.map(
    (r) => `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / bare).toFixed(2)} | ${r.errors + r.non2xx} |`,
  );
  const ratio = (results[1]?.rps ?? 0) / bare;
  const section = [
    '<!-- widget:start -->',
    '## Widget',
    '',
    `Command: \`npx tsx bench/widget.ts\` (bench/widget.ts), ${SECONDS} s per target in ${ROUNDS} slices taking turns,`,
    `50 connections, autocannon on the same machine (${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end)`,
    `on loopback; the service and the bare Koa route run in one other process`,
    `(bench/target.ts). Database: ${database}; a shop with ${REVIEWS} reviews. Requests ask for brotli, as browsers do.`,
    '',
    '| target | req/s | p50 ms | p99 ms | × bare Koa | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Target: widget_html at least 0.5 × the bare Koa route: ${ratio.toFixed(2)}, **${ratio >= 0.5 ? 'met' : 'not met'}**.`,
    '',
    'Bytes per layout (`npx tsx bench/widget-bytes.ts`): the heaviest page a layout can produce (six long reviews',
    'with replies; HTML, CSS and script in one response). Budgets, checked by `server/widget/budget.test.ts`: 12 KB',
    'compressed for the review layouts, 5 KB for buttons and badges.',
    '',
    ...bytesTable(),
    '<!-- widget:end -->',
  ].join('\n');
  replaceSection('widget', section);
  console.log(`wrote the Widget section of ${BENCHMARKS_FILE}`);
}

await main();
process.exit(0);
