// `npx tsx --expose-gc bench/google-feed.ts`: Google's product review feed 2.4 (GET /webshops/{id}/feeds/
// google-product-reviews.xml) on the embedded database (FerretDB on SQLite, as `npm start` runs it), with
// BENCH_REVIEWS (default 200,000) published product reviews of one shop, written straight into the database in the
// shape the store keeps (batches of 1,000; one product each, with text and a URL, 500 products; a tenth with a
// product without a URL, a twentieth imported). The service runs in this process and is called over loopback HTTP.
// Measured: the build (every published review read in batches, written through gzip to DATA_DIR; its size is the
// gzip file's), a fetch (the built file sent: the gzip bytes, or the XML's when the client takes no gzip), a conditional fetch (304), the dashboard's readiness figures
// (from the built feed), and after one review was removed: the fetch that finds it (the previous file, while the
// rebuild runs), the rebuild to its end, and the fetch after it. For each: the time and how far the
// process's RSS and heap rose above where they were before (sampled every 250 ms after a full garbage collection
// with --expose-gc), and the process's peak RSS over the whole run. FerretDB runs in its own process and is not
// counted. Prints the figures (BENCHMARKS.md by hand).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { googleSection } from '../server/feed/google-service.js';
import { createLogger } from '../server/log.js';
import { measureMemory } from './lib.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 200_000);
const TOKEN = 'bench-admin-token-0123456789abcdef';
const DAY = 86_400_000;
const MB = 1024 * 1024;

function review(id: number, shopId: number, now: number) {
  const created = new Date(now - (id % 500) * DAY);
  const imported = id % 20 === 7;
  const p = id % 500;
  return {
    _id: id,
    id,
    shopId,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: 4, customerservice: 5, pricequality: 3, aftersale: 0 },
    comment: `Good shop & "fast" delivery, packed well. Would order again (order ${id}).`,
    language: 'en',
    country: ['GB', 'NL', 'DE', ''][id % 4],
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
    verified: !imported,
    emailConfirmed: false,
    source: imported ? 'import' : 'invitation',
    origin: imported ? 'imported' : 'verified_order',
    incentivised: false,
    imported_from: imported ? 'Other' : null,
    original_date: null,
    products: [
      {
        external_id: `P-${p}`,
        name: `Product ${p} <b>`,
        url: id % 10 === 3 ? '' : `https://shop.example/p/${p}`,
        image_url: '',
        sku: `SKU-${p}`,
        gtin: p % 3 ? '8712345678906' : '',
        mpn: '',
        brand: 'Brand',
        rating: (id % 5) + 1,
        content: `Fits well, product ${p}: ${'comfortable and sturdy. '.repeat(1 + (id % 4))}`,
      },
    ],
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: created,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
  };
}

async function seed(db: Db, shopId: number, count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) => review(start + i + 1, shopId, now));
    await db.collection('reviews').insertMany(batch as never[]);
    if ((start / 1000) % 20 === 19) console.log(`  seeded ${(start + 1000).toLocaleString('en')}`);
  }
  // The public version the stores keep: a feed built before the seed would otherwise look current.
  await db
    .collection('review_versions')
    .updateOne({ _id: shopId as never }, { $inc: { v: 1, p: 1 } }, { upsert: true });
}

interface Run {
  label: string;
  ms: number;
  bytes: number;
  status: number;
  heapMb: number;
  rssMb: number;
}

/** One measured step: its time and peak memory (bench/lib.ts). */
async function measure(label: string, step: () => Promise<{ bytes: number; status: number }>): Promise<Run> {
  const { value, ms, heapMb, rssMb } = await measureMemory(step);
  const run = { label, ms, bytes: value.bytes, status: value.status, heapMb, rssMb };
  console.log(
    `${label}: ${run.status}, ${(ms / 1000).toFixed(2)} s, ${(run.bytes / MB).toFixed(2)} MB, heap +${heapMb.toFixed(1)} MB, RSS +${rssMb.toFixed(1)} MB`,
  );
  return run;
}

/** A fetch read to its end with node:http (no decoding: a gzip answer counts its compressed bytes). */
function fetchFeed(url: string, headers: Record<string, string>) {
  return new Promise<{ bytes: number; status: number; etag: string | null }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, status: res.statusCode ?? 0, etag: (res.headers.etag as string) ?? null }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-google-feed-'));
  const database = await startEmbeddedDatabase(join(dir, 'db'));
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_google_feed');
  const runs: Run[] = [];
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      ADMIN_TOKEN: TOKEN,
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_SHOP: '0',
      MONGODB_URI: database.uri,
      BASE_URL: 'http://127.0.0.1:1',
      DATA_DIR: join(dir, 'data'),
    });
    const built = await buildApp({ config, db, log: createLogger('warn') });
    const { services } = built;
    const shop = await services.webshops.create({ name: 'Big', url: 'https://big.example/' });
    const t0 = performance.now();
    await seed(db, shop.id, REVIEWS);
    const seededRss = process.memoryUsage().rss / MB;
    console.log(`seeded ${REVIEWS.toLocaleString('en')} reviews in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`RSS after the seed: ${seededRss.toFixed(0)} MB`);
    const key = await services.feedKeys.keyOf(shop.id);
    const server = createServer(built.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webshops/${shop.id}/feeds/google-product-reviews.xml?key=${key.key}`;
    const gzip = { 'accept-encoding': 'gzip' };
    let etag = '';
    const n = REVIEWS.toLocaleString('en');
    // The build through the service: over HTTP a build of minutes would meet the client's header timeout.
    runs.push(
      await measure(`${n}: build (reviews read, gzip file written)`, async () => {
        const feed = await services.googleFeeds.current(shop, key);
        etag = feed.etag;
        return { bytes: feed.bytes, status: 200 };
      }),
    );
    runs.push(await measure(`${n}: fetch (built file), gzip`, () => fetchFeed(url, gzip)));
    runs.push(await measure(`${n}: fetch, unzipped for the client`, () => fetchFeed(url, {})));
    runs.push(
      await measure(`${n}: conditional fetch (If-None-Match)`, () => fetchFeed(url, { 'if-none-match': etag })),
    );
    runs.push(
      await measure(`${n}: readiness figures (dashboard)`, async () => {
        const section = await googleSection(services, shop);
        console.log(
          JSON.stringify(section.readiness.product_reviews),
          JSON.stringify(section.readiness.products_left_out),
        );
        return { bytes: JSON.stringify(section).length, status: 200 };
      }),
    );
    await services.reviews.softDelete(1);
    // Stale while rebuilding: the fetch that finds the change starts the rebuild and, after its short wait, answers
    // the previous build; the rebuild is then waited for (the next fetch answers the new file).
    runs.push(
      await measure(`${n}: fetch after a review was removed (previous file while the rebuild runs), gzip`, () =>
        fetchFeed(url, gzip),
      ),
    );
    runs.push(
      await measure(`${n}: rebuild after a review was removed (to its end)`, async () => {
        await services.googleFeeds.whenBuilt(shop.id);
        const feed = await services.googleFeeds.current(shop, key);
        return { bytes: feed.bytes, status: 200 };
      }),
    );
    runs.push(await measure(`${n}: fetch after the rebuild, gzip`, () => fetchFeed(url, gzip)));
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
    services.mailer.close();
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\n| step | status | time s | body MB | heap growth MB | RSS growth MB |\n|---|---|---|---|---|---|');
  for (const r of runs)
    console.log(
      `| ${r.label} | ${r.status} | ${(r.ms / 1000).toFixed(2)} | ${(r.bytes / MB).toFixed(2)} | ${r.heapMb.toFixed(1)} | ${r.rssMb.toFixed(1)} |`,
    );
  // The process's peak resident set over the whole run (the seed's batches included), from the kernel.
  console.log(`\nPeak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB.`);
  console.log(
    `\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)} (shared machine).`,
  );
}

await main();
