// `npx tsx --expose-gc bench/export.ts`: exports of a shop's reviews (GET /admin/api/webshops/:id/reviews/export) on
// the embedded database (FerretDB on SQLite, as `npm start` runs it), with BENCH_REVIEWS (default 20,000) reviews of
// the shop and 2,000 of another in the same collection, written straight into the database as the store keeps them
// (a tenth with a reply, a product each, comments with commas, quotes and line breaks). The service runs in this
// process and is called over loopback HTTP; the client reads and drops the body. For each format: the time to the
// last byte, the size, and how far the process's heap and RSS rose above where they were before the export (sampled
// every 250 ms, each time after a full garbage collection), with a client reading as fast as it can, and once with
// a slow one (64 KB every 50 ms: the server must wait for it, not buffer the file). Also the same at a tenth of the
// reviews, to show memory does not grow with the shop's size. Prints the figures (BENCHMARKS.md is written by hand).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { MongoClient, type Db } from 'mongodb';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { createLogger } from '../server/log.js';
import { measureMemory } from './lib.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20_000);
const OTHER = 2_000;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const DAY = 86_400_000;
const MB = 1024 * 1024;

function review(id: number, shopId: number, now: number) {
  const created = new Date(now - (id % 700) * DAY);
  return {
    _id: id,
    id,
    shopId,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: 4, customerservice: 5, pricequality: 3, aftersale: 0 },
    comment: `Good shop, "fast" delivery, packed well.\nWould order again (order ${id}). `.repeat(3),
    language: 'en',
    country: 'GB',
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
    products: [
      {
        external_id: `P-${id % 50}`,
        name: `Product ${id % 50}`,
        url: `https://shop.example/p/${id % 50}`,
        image_url: '',
        sku: `SKU-${id % 50}`,
        gtin: '',
        mpn: '',
        brand: 'Brand',
        rating: (id % 5) + 1,
        content: 'Fits well',
      },
    ],
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

async function seed(db: Db, shopId: number, from: number, count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) =>
      review(from + start + i, shopId, now),
    );
    await db.collection('reviews').insertMany(batch as never[]);
  }
}

interface Run {
  label: string;
  ms: number;
  bytes: number;
  heapMb: number;
  rssMb: number;
}

/** One export read to its end, with its time and peak memory (bench/lib.ts: measureMemory). */
async function exportOnce(url: string, label: string, slow: boolean): Promise<Run> {
  const {
    value: bytes,
    ms,
    heapMb,
    rssMb,
  } = await measureMemory(async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    const reader = res.body!.getReader();
    let pending = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      pending += value.length;
      if (slow && pending >= 64 * 1024) {
        pending = 0;
        await pause(50);
      }
    }
    return bytes;
  });
  const run = { label, ms, bytes, heapMb, rssMb };
  console.log(
    `${label}: ${(ms / 1000).toFixed(2)} s, ${(bytes / MB).toFixed(1)} MB, heap +${run.heapMb.toFixed(1)} MB, RSS +${run.rssMb.toFixed(1)} MB`,
  );
  return run;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_export');
  const runs: Run[] = [];
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      ADMIN_TOKEN: TOKEN,
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_SHOP: '0',
      MONGODB_URI: database.uri,
      BASE_URL: 'http://127.0.0.1:1',
    });
    const built = await buildApp({ config, db, log: createLogger('warn') });
    const big = await built.services.webshops.create({ name: 'Big', url: 'https://big.example/' });
    const small = await built.services.webshops.create({ name: 'Small', url: 'https://small.example/' });
    const t0 = performance.now();
    await seed(db, big.id, 1, REVIEWS);
    await seed(db, small.id, REVIEWS + 1, OTHER);
    console.log(`seeded ${REVIEWS + OTHER} reviews in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const server = createServer(built.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/api/webshops`;
    const n = (count: number) => count.toLocaleString('en');
    await exportOnce(`${base}/${small.id}/reviews/export?format=csv`, 'warm-up', false);
    for (const format of ['csv', 'json']) {
      runs.push(
        await exportOnce(`${base}/${big.id}/reviews/export?format=${format}`, `${n(REVIEWS)} ${format}`, false),
      );
      runs.push(
        await exportOnce(`${base}/${small.id}/reviews/export?format=${format}`, `${n(OTHER)} ${format}`, false),
      );
    }
    runs.push(await exportOnce(`${base}/${big.id}/reviews/export?format=csv`, `${n(REVIEWS)} csv, slow client`, true));
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
    built.services.mailer.close();
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\n| export | time s | size MB | heap growth MB | RSS growth MB |\n|---|---|---|---|---|');
  for (const r of runs)
    console.log(
      `| ${r.label} | ${(r.ms / 1000).toFixed(2)} | ${(r.bytes / MB).toFixed(1)} | ${r.heapMb.toFixed(1)} | ${r.rssMb.toFixed(1)} |`,
    );
  console.log(
    `\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)} (shared machine).`,
  );
}

await main();
