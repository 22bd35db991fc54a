// `npx tsx bench/shop-page-sorts.ts`: the shop's public page (/webshops/{id}) at BENCH_REVIEWS (default 20,000)
// published reviews on the embedded database (FerretDB on SQLite, as `npm start` runs it), for each of the shopper's
// sorts, a star filter and "with photos" (issue 20), BENCH_RUNS (default 50) requests each, one at a time, over HTTP
// on loopback. Every tenth review has a shown photo and every seventh up to three "Helpful" votes. The first request loads
// the shop's reviews into memory (measured apart); the choices are then answered from that copy. Writes the
// "Shop page sorts" section of BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp } from '../server/app.js';
import { newPhotoId } from '../server/photos/store.js';
import { replaceSection } from './report.js';
import { seedShopWithReviews } from './lib.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const SHOP = 1;
const DAY = 86_400_000;

function review(id: number, now: number) {
  const created = new Date(now - ((id * 7919) % 730) * DAY - (id % 86_400) * 1000);
  const photos =
    id % 10 === 0
      ? [
          {
            id: newPhotoId(),
            state: 'shown',
            alt: '',
            width: 1600,
            height: 1200,
            thumbWidth: 320,
            thumbHeight: 240,
          },
        ]
      : undefined;
  return {
    _id: id,
    id,
    shopId: SHOP,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: (id % 5) + 1, customerservice: 4, pricequality: 4, aftersale: 0 },
    comment: `Fast delivery and the parcel was well packed. Order ${id}.`,
    language: 'en',
    country: 'NL',
    order: `order-${id}`,
    created,
    modified: created,
    read: true,
    quarantine: false,
    is_spam: false,
    valid: true,
    deleted: false,
    published: true,
    announced: true,
    verified: true,
    emailConfirmed: false,
    source: 'invitation',
    origin: 'verified_order',
    incentivised: false,
    imported_from: null,
    original_date: null,
    source_verified: false,
    products: [],
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: created,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
    ...(photos ? { photos } : {}),
  };
}

async function seed(db: Db): Promise<void> {
  await seedShopWithReviews(db, { id: SHOP, host: 'shop.example' }, REVIEWS, review);
  await db.collection('review_versions').insertOne({ _id: SHOP as never, v: 1, p: 1 });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

const CHOICES: [string, string][] = [
  ['newest (the default)', ''],
  ['oldest', '?sort=oldest'],
  ['highest', '?sort=highest'],
  ['lowest', '?sort=lowest'],
  ['most helpful', '?sort=helpful'],
  ['1 and 2 stars', '?stars=1,2'],
  ['with photos', '?photos=1'],
  ['lowest, 1 and 2 stars, with photos, page 3', '?sort=lowest&stars=1,2&photos=1&page=3'],
];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-shop-page-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_shop_page');
  let server: Server | undefined;
  const rows: string[] = [];
  let first = 0;
  try {
    const t0 = performance.now();
    await seed(db);
    console.log(`seeded ${REVIEWS} reviews in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const config = loadConfig({
      NODE_ENV: 'test',
      ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_SHOP: '0',
      MONGODB_URI: database.uri,
      BASE_URL: 'http://127.0.0.1:1',
    });
    const built = await buildApp({ config, db, log: createLogger('warn') });
    await built.services.reviews.ensureIndexes();
    // Some "Helpful" votes: every seventh review, up to three.
    for (let id = 7; id <= REVIEWS; id += 7) {
      for (let v = 0; v < id % 4; v++) await built.services.helpful.vote(SHOP, id, `bench-${id}-${v}`);
    }
    server = createServer(built.app.callback());
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webshops/${SHOP}`;
    first = await timed(`${url}?sort=oldest`);
    console.log(`first chosen order (loads the shop's reviews): ${ms(first)} ms`);
    for (const [what, query] of CHOICES) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timed(url + query));
      const row = `| ${what} | \`${query || '/'}\` | ${ms(percentile(times, 50))} ms | ${ms(percentile(times, 95))} ms |`;
      console.log(row);
      rows.push(row);
    }
  } finally {
    server?.closeAllConnections();
    server?.close();
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const section = [
    '<!-- shop-page-sorts:start -->',
    '## Shop page sorts and filters (issue 20)',
    '',
    `Shop page at ${REVIEWS.toLocaleString('en')} published reviews on the embedded database (FerretDB on SQLite), ${RUNS} requests each, one at a time (\`npx tsx bench/shop-page-sorts.ts\`; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}). The shop's reviews are held in memory after the first chosen order (${ms(first)} ms); every choice is then a sort or filter of that copy.`,
    '',
    '| choice | query | p50 | p95 |',
    '|---|---|---|---|',
    ...rows,
    '<!-- shop-page-sorts:end -->',
  ].join('\n');
  replaceSection('shop-page-sorts', section);
}

await main();
