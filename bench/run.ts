// `npm run bench`: throughput and latency of the REST API on a shop with 10,000 reviews and on an empty shop,
// next to a bare Koa JSON route and the same queries sent straight to the database, all in one run.
// Writes the "REST API" section of BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '../server/db/index.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { WebshopStore, type Webshop } from '../server/webshops/store.js';
import type { Review } from '../server/reviews/model.js';
import { noSubRatings } from '../server/reviews/rules.js';
import { load, type LoadResult } from './load.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';
import { Caches } from '../server/cache.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const REVIEWS = 10_000;
const LANGS = ['nl', 'en', 'de'] as const;

function seedReview(id: number, shopId: number, now: number): Review {
  const created = new Date(now - id * 3_600_000);
  const rating = (id % 5) + 1;
  return {
    id,
    shopId,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating,
    ratings: { ...noSubRatings(), shippingtime: rating, customerservice: ((id + 1) % 5) + 1 },
    comment: `Review number ${id}: quick delivery and friendly service, would order again.`,
    language: LANGS[id % LANGS.length]!,
    country: 'NL',
    order: `ORD-${id}`,
    created,
    modified: created,
    read: true,
    quarantine: id % 50 === 0,
    is_spam: false,
    valid: true,
    deleted: false,
    published: id % 50 !== 0,
    announced: id % 50 !== 0,
    // Stored as the start-up migration of review origins leaves an import (migrations/review-origins.ts): seeded
    // in the older shape, every start rewrote all of them first (minutes on a busy machine).
    verified: false,
    source_verified: true,
    origin: 'imported',
    source: 'import',
    products: [],
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: null,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
  };
}

async function startTarget(uri: string, dbName: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/target.ts', uri, dbName], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((ok, fail) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', ok);
    child.once('exit', (code) => fail(new Error(`bench target exited with ${code}`)));
  });
  return { ports: JSON.parse(line) as { servicePort: number; barePort: number }, stop: () => child.kill('SIGTERM') };
}

/** Runs `op` from `concurrency` loops for `seconds`; returns operations per second and p50 latency (ms). */
async function direct(name: string, seconds: number, concurrency: number, op: (n: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await op(n++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    name,
    ops: Math.round(latencies.length / seconds),
    p50: Number((latencies[Math.floor(latencies.length / 2)] ?? 0).toFixed(1)),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'review-bench-'));
  const external = process.env.BENCH_MONGODB_URI;
  const embedded = external ? undefined : await startEmbeddedDatabase(dir);
  const uri = external ?? embedded!.uri;
  const dbName = `bench_${Date.now()}`;
  const { client, db } = await connect(uri, dbName);
  const kind = embedded?.kind ?? 'external MongoDB';
  const serverVersion = ((await db.admin().command({ buildInfo: 1 })) as { version?: string }).version ?? '?';
  console.log(`database: ${kind} (reports version ${serverVersion}); ${SECONDS} s per target`);

  const shops = new WebshopStore(db, new Caches({ ttlMs: 0, maxBytes: 1 }).cache('webshops'));
  await shops.ensureIndexes();
  const big = await shops.create({ name: 'Big Shop', url: 'https://big.example/' });
  const empty = await shops.create({ name: 'Empty Shop', url: 'https://empty.example/' });
  const now = Date.now();
  const docs = Array.from({ length: REVIEWS }, (_, i) => seedReview(i + 1, big.id, now));
  for (let i = 0; i < docs.length; i += 1000) await db.collection('reviews').insertMany(docs.slice(i, i + 1000));
  await db.collection('counters').updateOne({ _id: 'reviews' as never }, { $set: { seq: REVIEWS } }, { upsert: true });

  const target = await startTarget(uri, dbName);
  const base = `http://127.0.0.1:${target.ports.servicePort}`;
  const auth = (s: Webshop) => `id=${s.id}&code=${s.code}`;
  const results: LoadResult[] = [];
  /** How long each target's first request took (cold caches). */
  const coldMs = new Map<string, number>();
  const run = async (t: Parameters<typeof load>[0]) => {
    // Steady state is measured: one request first fills the caches a first request fills (on FerretDB, loading
    // the 10,000 reviews takes seconds, which would otherwise fall inside the measured time).
    if ((t.method ?? 'GET') === 'GET') {
      const started = performance.now();
      await fetch(t.request ? `${t.url}${t.request(0).path}` : t.url);
      coldMs.set(t.name, Math.round(performance.now() - started));
    }
    const r = await load(t, SECONDS);
    console.log(
      `${r.name.padEnd(42)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors} non-2xx ${r.non2xx}`,
    );
    results.push(r);
  };

  await run({ name: 'bare Koa JSON route', url: `http://127.0.0.1:${target.ports.barePort}/bare.json` });
  for (const [label, shop] of [
    ['10k reviews', big],
    ['empty', empty],
  ] as const) {
    await run({ name: `webshop.json (${label})`, url: `${base}/api/1.0/webshop.json?${auth(shop)}` });
    await run({ name: `ratings_summary.json (${label})`, url: `${base}/api/1.0/ratings_summary.json?${auth(shop)}` });
    await run({
      name: `ratings.json (${label})`,
      url: base,
      request: (n) => {
        const lang = n % 4 === 3 ? '' : `&language=${LANGS[n % 3]}`;
        return { path: `/api/1.0/ratings.json?${auth(shop)}&offset=${(n * 7) % 200}&limit=10${lang}` };
      },
    });
    await run({
      name: `POST invitations.json (${label})`,
      url: base,
      method: 'POST',
      request: (n) => ({
        path: `/api/1.0/invitations.json?${auth(shop)}`,
        body: `email=bench.${label.replace(/\W/g, '')}.${n}%40example.com&order=B${n}&delay=3&customer_name=Bench`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    });
  }
  target.stop();

  // The same reads and writes straight through the driver, without HTTP, caching or validation.
  const reviews = db.collection<Review>('reviews');
  const direct50 = [
    await direct('find reviews page (shop, sort created, skip/limit 10)', SECONDS, 10, (n) =>
      reviews
        .find({ shopId: big.id, deleted: false })
        .sort({ created: -1 })
        .skip((n * 7) % 200)
        .limit(10)
        .toArray(),
    ),
    await direct('find published ratings for summary', SECONDS, 10, () =>
      reviews.find({ shopId: big.id, published: true }, { projection: { rating: 1, ratings: 1 } }).toArray(),
    ),
    await direct('findOne webshop by id', SECONDS, 10, () => db.collection('webshops').findOne({ id: big.id })),
    await direct('insertOne invitation', SECONDS, 50, (n) =>
      db
        .collection('bench_invitations')
        .insertOne({ shopId: big.id, email: `d${n}@example.com`, order: `D${n}`, created: new Date() }),
    ),
    // What the service's group commit (server/db/group-insert.ts) builds on: one call carries many documents.
    await direct('insertMany 50 invitations per call (calls/s)', SECONDS, 2, (n) =>
      db.collection('bench_invitations').insertMany(
        Array.from({ length: 50 }, (_, i) => ({
          shopId: big.id,
          email: `m${n}.${i}@example.com`,
          order: `M${n}.${i}`,
          created: new Date(),
        })),
      ),
    ),
  ];
  for (const d of direct50)
    console.log(`direct: ${d.name.padEnd(55)} ${String(d.ops).padStart(6)} ops/s  p50 ${d.p50} ms`);

  await db.dropDatabase().catch(() => undefined);
  await client.close();
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });

  writeSection(results, direct50, `${kind} ${serverVersion}`, coldMs);
}

function writeSection(
  results: LoadResult[],
  directResults: { name: string; ops: number; p50: number }[],
  database: string,
  coldMs: Map<string, number>,
) {
  const rps = (name: string) => results.find((r) => r.name === name)?.rps ?? 0;
  const bare = rps('bare Koa JSON route');
  const ratio = (name: string) => (bare ? rps(name) / bare : 0);
  const verdict = (ok: boolean) => (ok ? '**met**' : '**not met**');
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${bare ? (r.rps / bare).toFixed(2) : '-'} | ${r.errors + r.non2xx} | ${coldMs.get(r.name) ?? '-'} |`,
  );
  const targets = [
    ['ratings_summary.json ≥ 0.5 × bare Koa', ratio('ratings_summary.json (10k reviews)'), 0.5],
    ['webshop.json ≥ 0.5 × bare Koa', ratio('webshop.json (10k reviews)'), 0.5],
    ['ratings.json ≥ 0.2 × bare Koa', ratio('ratings.json (10k reviews)'), 0.2],
  ] as const;
  const targetRows = targets.map(
    ([name, value, min]) => `| ${name} | ${value.toFixed(2)} | ${verdict(value >= min)} |`,
  );
  const inv = rps('POST invitations.json (10k reviews)');
  targetRows.push(`| invitation POSTs ≥ 1,000/s | ${inv}/s | ${verdict(inv >= 1000)} |`);
  for (const name of ['webshop.json', 'ratings_summary.json', 'ratings.json', 'POST invitations.json']) {
    const slow = rps(`${name} (empty)`) / Math.max(1, rps(`${name} (10k reviews)`));
    targetRows.push(
      `| ${name}: 10k-review shop within 2× of the empty shop | ${slow.toFixed(2)}× | ${verdict(slow <= 2)} |`,
    );
  }
  const section = [
    '<!-- api:start -->',
    '## REST API',
    '',
    `Command: \`npm run bench\` (bench/run.ts), ${SECONDS} s per target after one warm-up request, 50 connections,`,
    `autocannon in the same machine (${cpus().length} cores) on loopback. Database: ${database}. Rate limits off (one`,
    'client address). The service runs as an API process (bench/target.ts: no scheduler, as with ROLE=api).',
    '',
    '| target | req/s | p50 ms | p99 ms | × bare Koa | errors | first request ms (cold cache) |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    "The first request for a shop's ratings or summary loads its reviews once (on FerretDB a scan of the reviews",
    "collection: the last column); after that they are served from memory until one of the shop's reviews changes.",
    'Invitation POSTs are written by group commit (server/db/group-insert.ts); the direct figures below show why.',
    '',
    'Straight to the database through the driver (no HTTP, no cache), same data:',
    '',
    '| operation | ops/s | p50 ms |',
    '|---|---|---|',
    ...directResults.map((d) => `| ${d.name} | ${d.ops} | ${d.p50} |`),
    '',
    '| target | measured | verdict |',
    '|---|---|---|',
    ...targetRows,
    '<!-- api:end -->',
  ].join('\n');
  replaceSection('api', section);
  console.log(`wrote the REST API section of ${BENCHMARKS_FILE}`);
}

await main();
process.exit(0);
