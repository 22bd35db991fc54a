// `npx tsx bench/products.ts`: the product surfaces (issue 22) on the embedded database (FerretDB on SQLite, as
// `npm start` runs it) with a shop of BENCH_REVIEWS (default 20,000) published reviews over BENCH_PRODUCTS (default
// 500) products, each review rating one product, plus 1,000 imported product reviews. The seed is written straight
// into the database as the service stores reviews. The service is built in this process and called over HTTP on
// loopback, one request at a time, BENCH_RUNS (default 200) times per kind: the fragment (first page, a filter and a
// sort, a deep page), the JSON-LD, and part=rating. Also measured, a few times each: the first request after the
// service starts (the shop's product index is read whole) and the first after a review of the shop was written (the
// index changed in place), the first past the cache's TTL after that (counters compared), and the first past the
// TTL after another process on the database wrote one (the reviews changed since read). Writes the "Product
// surfaces" section of BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp, type BuiltApp } from '../server/app.js';
import { replaceSection } from './report.js';
import { seedShopWithReviews } from './lib.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const IMPORTED = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
const SHOP = 1;
const DAY = 86_400_000;

const pick = <T>(n: number, items: readonly T[]) => items[n % items.length]!;
const PHRASES = [
  'Sturdy and exactly as described.',
  'Good value for money, I would buy it again.',
  'The colour is a little darker than on the photos.',
  'Works well, the manual could be clearer.',
  'Arrived quickly, well packed. Very happy with it!',
];

const productOf = (n: number) => ({
  external_id: `P-${n}`,
  name: `Product ${n}`,
  url: `https://shop1.example/p/${n}`,
  image_url: `https://shop1.example/p/${n}.jpg`,
  sku: `SKU-${n}`,
  gtin: String(4_000_000_000_000 + n),
  mpn: `MPN-${n}`,
  brand: 'Bench',
});

function review(id: number, now: number) {
  const created = new Date(now - ((id * 7919) % 730) * DAY - (id % 86_400) * 1000);
  return {
    _id: id,
    id,
    shopId: SHOP,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 },
    comment: `${pick(id, PHRASES)} ${pick(id * 7, PHRASES)}`,
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
    incentivised: id % 20 === 0,
    imported_from: null,
    original_date: null,
    source_verified: false,
    experience_date: created.toISOString().slice(0, 10),
    products: [{ ...productOf(id % PRODUCTS), rating: ((id * 3) % 5) + 1, content: pick(id * 3, PHRASES) }],
    reply: id % 10 === 3 ? { text: 'Thank you!', date: created, notify: false, revision: 1, notified: null } : null,
    editToken: null,
    editMailDue: null,
    editMailSent: created,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
  };
}

function imported(n: number, now: number) {
  const date = new Date(now - (n % 900) * DAY);
  const p = productOf(n % PRODUCTS);
  return {
    _id: `${SHOP}|bench:${n}`,
    shopId: SHOP,
    import_id: 'bench',
    product: { ...p, handle: `product-${n % PRODUCTS}` },
    rating: (n % 5) + 1,
    title: 'Imported',
    text: pick(n, PHRASES),
    name: `Imported ${n}`,
    email: `imported${n}@example.com`,
    country: 'NL',
    origin: 'imported',
    imported_from: 'Judge.me',
    original_date: date,
    experience_date: null,
    incentivised: false,
    source_verified: true,
    reply: null,
    photo_urls: [],
    status: 'published',
    source_status: '',
    removal_ground: null,
    created: date,
    modified: date,
  };
}

async function seed(db: Db): Promise<void> {
  await seedShopWithReviews(db, { id: SHOP, host: 'shop1.example' }, REVIEWS, review);
  const now = Date.now();
  await db
    .collection('imported_product_reviews')
    .insertMany(Array.from({ length: IMPORTED }, (_, n) => imported(n, now)) as never[]);
  await db.collection('review_versions').insertOne({ _id: SHOP as never, v: 1, p: 1 });
}

interface Running {
  built: BuiltApp;
  server: Server;
  url: string;
}

async function start(db: Db, uri: string): Promise<Running> {
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    RATE_LIMIT_PER_IP: '0',
    RATE_LIMIT_PER_SHOP: '0',
    MONGODB_URI: uri,
    BASE_URL: 'http://127.0.0.1:1',
  });
  const built = await buildApp({ config, db, log: createLogger('warn') });
  const server = createServer(built.app.callback());
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { built, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const stop = (r: Running) =>
  new Promise<void>((ok) => {
    r.server.closeAllConnections();
    r.server.close(() => ok());
  });

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return { ms, bytes: Buffer.byteLength(body) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));

interface Row {
  what: string;
  query: string;
  p50: number;
  p95: number;
  bytes: number;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-products-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_products');
  const rows: Row[] = [];
  const cold: number[] = [];
  const afterWrite: number[] = [];
  const afterTtl: number[] = [];
  const afterOther: number[] = [];
  try {
    const t0 = performance.now();
    await seed(db);
    console.log(
      `seeded ${REVIEWS} reviews and ${IMPORTED} imported product reviews in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const fragment = (r: Running, query: string) => `${r.url}/webshops/${SHOP}/products/reviews.html?${query}`;
    const jsonld = (r: Running, query: string) => `${r.url}/webshops/${SHOP}/products/jsonld?${query}`;

    for (let i = 0; i < COLD_RUNS; i++) {
      const running = await start(db, database.uri);
      cold.push((await timed(fragment(running, `product=P-${i + 1}`))).ms);
      await stop(running);
      console.log(`first request after start: ${ms(cold.at(-1)!)} ms`);
    }

    const running = await start(db, database.uri);
    const kinds: { what: string; query: (n: number) => string; url: typeof fragment }[] = [
      { what: 'fragment, first page', query: (n) => `product=P-${n}&lang=en`, url: fragment },
      { what: 'fragment by SKU', query: (n) => `product=SKU-${n}`, url: fragment },
      {
        what: 'fragment, 1–2 stars, lowest first',
        query: (n) => `product=P-${n}&sort=lowest&stars=1,2`,
        url: fragment,
      },
      { what: 'fragment, most helpful', query: (n) => `product=P-${n}&sort=helpful`, url: fragment },
      { what: 'fragment, page 4', query: (n) => `product=P-${n}&page=4`, url: fragment },
      { what: 'fragment, unknown product (empty)', query: (n) => `product=none-${n}`, url: fragment },
      { what: 'JSON-LD', query: (n) => `product=P-${n}`, url: jsonld },
      {
        what: 'JSON-LD by GTIN, part=rating',
        query: (n) => `product=${4_000_000_000_000 + n}&part=rating`,
        url: jsonld,
      },
    ];
    await timed(fragment(running, 'product=P-1'));
    for (const kind of kinds) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const result = await timed(kind.url(running, kind.query((i * 37) % PRODUCTS)));
        times.push(result.ms);
        bytes = result.bytes;
      }
      rows.push({
        what: kind.what,
        query: kind.query(1),
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        bytes,
      });
      console.log(`${kind.what}: p50 ${ms(rows.at(-1)!.p50)} ms, p95 ${ms(rows.at(-1)!.p95)} ms, ${bytes} B`);
    }

    const write = (r: Running, n: number) =>
      r.built.services.reviews.create(SHOP, {
        name: `Writer ${n}`,
        email: `writer${n}@example.com`,
        rating: 5,
        language: 'en',
        verified: true,
        source: 'invitation',
        products: [{ ...productOf(7), rating: 5, content: 'New review' }],
      });
    const pastTtl = () => pause(running.built.services.config.cache.ttlMs + 200);
    for (let i = 0; i < COLD_RUNS; i++) {
      await write(running, i);
      afterWrite.push((await timed(fragment(running, 'product=P-7'))).ms);
      console.log(`first request after a review was written: ${ms(afterWrite.at(-1)!)} ms`);
      // Past the cache's TTL: the counters are compared (this process's own step counted), nothing else read.
      await pastTtl();
      afterTtl.push((await timed(fragment(running, 'product=P-7'))).ms);
      console.log(`first request past the TTL after it: ${ms(afterTtl.at(-1)!)} ms`);
    }
    // Another process on the same database writes: this one reads the reviews changed since its last check.
    const other = await start(db, database.uri);
    for (let i = 0; i < COLD_RUNS; i++) {
      await write(other, 100 + i);
      await pastTtl();
      afterOther.push((await timed(fragment(running, 'product=P-7'))).ms);
      console.log(`first request past the TTL after another process wrote: ${ms(afterOther.at(-1)!)} ms`);
    }
    await stop(other);
    await stop(running);
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const median = (v: number[]) => percentile(v, 50);
  const section = [
    '<!-- products:start -->',
    '## Product surfaces',
    '',
    `\`npx tsx bench/products.ts\`, ${new Date().toISOString().slice(0, 10)}: ${REVIEWS.toLocaleString('en')} published reviews over ` +
      `${PRODUCTS} products and ${IMPORTED.toLocaleString('en')} imported product reviews, embedded database (FerretDB on ` +
      `SQLite), ${cpus().length} cores (load ${loadavg()[0]!.toFixed(1)}), one request at a time, ${RUNS} runs per row.`,
    '',
    '| request | p50 ms | p95 ms | body bytes |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.what} (\`${r.query}\`) | ${ms(r.p50)} | ${ms(r.p95)} | ${r.bytes} |`),
    '',
    `First request after start (the shop's product index read): median ${ms(median(cold))} ms of ${cold.length}. ` +
      `First request after a review of the shop was written (the index changed in place): median ${ms(median(afterWrite))} ms ` +
      `of ${afterWrite.length}; the first past the cache's TTL after it (counters compared): ${ms(median(afterTtl))} ms; ` +
      `the first past the TTL after another process wrote one (the reviews changed since read): ${ms(median(afterOther))} ms.`,
    '<!-- products:end -->',
  ].join('\n');
  replaceSection('products', section);
  console.log(`\n${section}`);
}

await main();
