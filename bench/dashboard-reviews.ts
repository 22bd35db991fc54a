// `npx tsx bench/dashboard-reviews.ts`: the dashboard's reviews page and overview on the embedded database (FerretDB
// on SQLite, as `npm start` runs it) with a shop of BENCH_REVIEWS (default 20,000) reviews in every status (and
// 1,000 of another shop in the same collection). The seed is written straight into the database as the service
// stores reviews. The service is built in this process and called over HTTP on loopback by a signed-in owner, one
// request at a time, BENCH_RUNS (default 100) times per kind: the first page, filters, a deep page, searches (a
// common word, a word found nowhere, regex characters) and the overview. Also measured, each a few times: the first
// request after the service starts (a new process loads the shop's view) and the first request after another
// process wrote a review (the view reads the reviews changed since). Writes the "Dashboard reviews" section of
// BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp, type BuiltApp } from '../server/app.js';
import { warmDashboardViews } from '../server/dashboard/warm-up.js';
import { signedInAgent } from '../server/accounts/test-session.js';
import { replaceSection } from './report.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20_000);
const OTHER_REVIEWS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
const DELTA_RUNS = Number(process.env.BENCH_DELTA_RUNS ?? 5);
const SHOP = 1;
const DAY = 86_400_000;

const pick = <T>(n: number, items: readonly T[]) => items[n % items.length]!;
const PHRASES = [
  'Fast delivery and the parcel was well packed.',
  'Good value for money, I would order here again.',
  'The size was wrong, but the exchange went smoothly.',
  'Customer service answered within an hour (very helpful).',
  'Took a week longer than promised. Product is fine.',
  'Excellent quality, exactly as described on the site!',
];

/** A review as ReviewStore stores it (keyed by id), in the mix of states a running shop has. */
function review(id: number, shopId: number, now: number) {
  const created = new Date(now - ((id * 7919) % 730) * DAY - (id % 86_400) * 1000);
  const n = id - 1;
  const awaiting = n % 100 === 7;
  const quarantined = n % 100 === 8 || n % 100 === 9;
  const deleted = n % 100 === 10;
  return {
    _id: id,
    id,
    shopId,
    name: deleted ? '' : `Reviewer ${id}`,
    email: deleted ? '' : `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: (id % 5) + 1, customerservice: id % 3 ? 4 : 0, pricequality: 4, aftersale: 0 },
    comment: deleted ? null : `${pick(id, PHRASES)} ${pick(id * 7, PHRASES)} Order ${id}.`,
    language: pick(id, ['en', 'de', 'nl', 'fr']),
    country: pick(id, ['DE', 'NL', 'GB', 'FR']),
    order: `order-${id}`,
    created,
    modified: created,
    read: n % 3 !== 0,
    quarantine: awaiting || quarantined,
    is_spam: false,
    valid: true,
    deleted,
    published: !(awaiting || quarantined || deleted),
    announced: !(awaiting || quarantined),
    verified: !awaiting,
    emailConfirmed: false,
    source: awaiting ? 'popup' : 'invitation',
    origin: awaiting ? 'email_confirmed' : 'verified_order',
    incentivised: false,
    imported_from: null,
    original_date: null,
    source_verified: false,
    products: [],
    reply:
      n % 10 === 3 && !deleted
        ? { text: 'Thank you for your review!', date: created, notify: false, revision: 1, notified: null }
        : null,
    editToken: null,
    editMailDue: null,
    editMailSent: created,
    confirmToken: awaiting ? `confirm-${id}` : null,
    confirmMailSent: awaiting ? created : null,
    version: 1,
    pendingEvent: null,
  };
}

async function seed(db: Db): Promise<void> {
  const now = Date.now();
  const created = new Date(now - 800 * DAY);
  await db.collection('webshops').insertMany(
    [SHOP, SHOP + 1].map((id) => ({
      id,
      code: `code${id}`.padEnd(32, '0'),
      name: `Bench Shop ${id}`,
      url: `https://shop${id}.example/`,
      host: `shop${id}.example`,
      logo: '',
      address: { street: '', housenumber: '', postalcode: '', city: '', country: '' },
      languages: [{ name: 'English', url: `https://shop${id}.example/`, iso: 'en', all: false, main: true }],
      hero_color: '',
      hero_image: '',
      reply_access: true,
      approved_date: null,
      partner_assurances: {},
      sidebar: {},
      require_signed_order_data: false,
      created,
      updated: created,
    })),
  );
  const total = REVIEWS + OTHER_REVIEWS;
  await db.collection('counters').insertMany([
    { _id: 'webshops' as never, seq: 2 },
    { _id: 'reviews' as never, seq: total },
  ]);
  for (let from = 1; from <= total; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, total - from + 1) }, (_, i) => {
      const id = from + i;
      return review(id, id <= REVIEWS ? SHOP : SHOP + 1, now);
    });
    await db.collection('reviews').insertMany(batch as never[]);
  }
  await db.collection('review_versions').insertMany([
    { _id: SHOP as never, v: 1, p: 1 },
    { _id: (SHOP + 1) as never, v: 1, p: 1 },
  ]);
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

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { total?: number; count?: number };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, total: body.total ?? body.count ?? 0 };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));

interface Row {
  what: string;
  query: string;
  matches: number;
  p50: number;
  p95: number;
  runs: number;
  target?: number;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dashboard-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_dashboard');
  const rows: Row[] = [];
  const cold: number[] = [];
  const coldOverview: number[] = [];
  const readAhead: number[] = [];
  const afterReadAhead: number[] = [];
  const delta: number[] = [];
  const visible: number[] = [];
  try {
    const t0 = performance.now();
    await seed(db);
    console.log(`seeded ${REVIEWS + OTHER_REVIEWS} reviews in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const list = (running: Running, query: string) =>
      `${running.url}/dashboard/api/shops/${SHOP}/reviews${query ? `?${query}` : ''}`;
    let headers: Record<string, string> = {};

    // The first request after start: a new process (here a new app with its own view) loads the shop.
    for (let i = 0; i < COLD_RUNS; i++) {
      const running = await start(db, database.uri);
      headers = (
        await signedInAgent(running.built, {
          email: 'owner@bench.example',
          shopId: SHOP,
          role: 'owner',
          baseUrl: running.url,
        })
      ).headers;
      cold.push((await timed(list(running, ''), headers)).ms);
      await stop(running);
      const again = await start(db, database.uri);
      coldOverview.push((await timed(`${again.url}/dashboard/api/shops/${SHOP}/overview`, headers)).ms);
      await stop(again);
      console.log(`first request after start: list ${ms(cold.at(-1)!)} ms, overview ${ms(coldOverview.at(-1)!)} ms`);
    }

    // The same with the read-ahead main.ts starts once it listens (dashboard/warm-up.ts): the owners of both shops
    // signed in before, so both are read ahead (in one pass).
    for (let i = 0; i < COLD_RUNS; i++) {
      const running = await start(db, database.uri);
      const owner = await signedInAgent(running.built, {
        email: 'owner@bench.example',
        shopId: SHOP,
        role: 'owner',
        baseUrl: running.url,
      });
      const other = await signedInAgent(running.built, {
        email: 'other@bench.example',
        shopId: SHOP + 1,
        role: 'owner',
        baseUrl: running.url,
      });
      await running.built.services.users.recordSignIn(other.userId, new Date(Date.now() - 1000));
      await running.built.services.users.recordSignIn(owner.userId, new Date());
      const started = performance.now();
      await warmDashboardViews(running.built.services, createLogger('warn'));
      readAhead.push(performance.now() - started);
      afterReadAhead.push((await timed(list(running, ''), owner.headers)).ms);
      await stop(running);
      console.log(`read-ahead ${ms(readAhead.at(-1)!)} ms, then the first request ${ms(afterReadAhead.at(-1)!)} ms`);
    }

    const running = await start(db, database.uri);
    headers = (
      await signedInAgent(running.built, {
        email: 'owner@bench.example',
        shopId: SHOP,
        role: 'owner',
        baseUrl: running.url,
      })
    ).headers;
    await timed(list(running, ''), headers);
    const kinds: [string, string, number?][] = [
      ['first page', '', 300],
      ['filter: rating', 'rating=1', 300],
      ['filter: unread without reply, 1 language', 'unread=1&reply=without&language=de', 300],
      ['filter: status quarantined', 'status=quarantined', 300],
      ['filter: date range, page 3', 'from=2026-01-01&to=2026-06-30&page=3', 300],
      ['deep page (page 900 of 1,000)', 'page=900', 300],
      ['search: a common word', 'q=parcel', 1000],
      ['search: found nowhere', 'q=xylophone', 1000],
      ['search: regex characters, taken literally', `q=${encodeURIComponent('(very helpful).')}`, 1000],
      ['search + filter', 'q=delivery&rating=5&status=published', 1000],
    ];
    for (const [what, query, target] of kinds) {
      const times: number[] = [];
      let matches = 0;
      for (let i = 0; i < RUNS; i++) {
        const { ms: took, total } = await timed(list(running, query), headers);
        times.push(took);
        matches = total;
      }
      rows.push({ what, query, matches, p50: percentile(times, 50), p95: percentile(times, 95), runs: RUNS, target });
      console.log(`${what}: p50 ${ms(rows.at(-1)!.p50)} ms, p95 ${ms(rows.at(-1)!.p95)} ms (${matches} match)`);
    }
    const overview: number[] = [];
    for (let i = 0; i < RUNS; i++)
      overview.push((await timed(`${running.url}/dashboard/api/shops/${SHOP}/overview`, headers)).ms);
    rows.push({
      what: 'overview',
      query: '',
      matches: REVIEWS,
      p50: percentile(overview, 50),
      p95: percentile(overview, 95),
      runs: RUNS,
    });

    // Another process writes: this one's next request reads the reviews changed since its last check.
    const other = await start(db, database.uri);
    for (let i = 0; i < DELTA_RUNS; i++) {
      const written = await other.built.services.reviews.create(SHOP, {
        name: 'Elsewhere',
        email: 'e@example.com',
        rating: 5,
        language: 'en',
        comment: 'Written by another process',
        created: new Date(Date.now() + DAY),
      });
      const wrote = performance.now();
      delta.push((await timed(list(running, 'page_size=1'), headers)).ms);
      // Then every 100 ms until the list shows it.
      for (;;) {
        const res = await fetch(list(running, 'page_size=1'), { headers });
        const body = (await res.json()) as { items: { id: number }[] };
        if (body.items[0]?.id === written.id) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      visible.push(performance.now() - wrote);
    }
    console.log(
      `first request after another process wrote: ${delta.map(ms).join(', ')} ms; shown after ${visible.map(ms).join(', ')} ms`,
    );
    await stop(other);
    await stop(running);
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_WRITE !== '0')
    writeSection(rows, cold, coldOverview, delta, visible, readAhead, afterReadAhead);
}

function commitOf(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  } catch {
    return 'unknown';
  }
}

function writeSection(
  rows: Row[],
  cold: number[],
  coldOverview: number[],
  delta: number[],
  visible: number[],
  readAhead: number[],
  afterReadAhead: number[],
) {
  const verdict = (r: Row) =>
    r.target === undefined ? '' : r.p95 <= r.target ? `≤ ${r.target}: met` : `≤ ${r.target}: **not met**`;
  const section = [
    '<!-- dashboard-reviews:start -->',
    '## Dashboard reviews',
    '',
    'Command: `npx tsx bench/dashboard-reviews.ts`. The embedded database (FerretDB 1.24 on SQLite, as `npm start` runs',
    `it) seeded with a shop of ${REVIEWS.toLocaleString('en')} reviews (published, 3 % quarantined, 1 % awaiting confirmation, 1 % deleted,`,
    `10 % answered, a third unread, four languages, two years) and ${OTHER_REVIEWS.toLocaleString('en')} of another shop in the same collection.`,
    'The service is built in the bench process and called over loopback HTTP by a signed-in owner, one request at a',
    `time, ${RUNS} times per row, after one warm-up request. Lists and searches are answered from the per-shop view`,
    "(server/dashboard/review-view.ts): once it is held, a request reads only the shop's change counter (by `_id`).",
    '',
    '| request | query | matches | p50 ms | p95 ms | target (p95 ms) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.what} | \`${r.query || '—'}\` | ${r.matches.toLocaleString('en')} | ${ms(r.p50)} | ${ms(r.p95)} | ${verdict(r)} |`,
    ),
    '',
    'Apart, as they are not steady-state figures:',
    '',
    `- **First request after the service starts** (the view of the shop is read: all its reviews, one query): list ${cold.map(ms).join(', ')} ms; overview ${coldOverview.map(ms).join(', ')} ms (${cold.length} starts each).`,
    `  A process that serves the dashboard reads the views of the 10 shops whose users signed in most recently right after it starts (server/dashboard/warm-up.ts, in the background), in one pass over each collection (reviews, invitations) for all of them: here both shops, which took ${readAhead.map(ms).join(', ')} ms, and the first request after it ${afterReadAhead.map(ms).join(', ')} ms. A request that comes during the read-ahead waits for the same read.`,
    `- **First request after another process wrote a review** (the counter moved by more than this process wrote: the reviews modified since the last check, less a minute, are read, one query that FerretDB answers by reading the whole collection; an answer waits for it at most 300 ms, then answers from the view as it is): ${delta.map(ms).join(', ')} ms. The review was in the list (polled every 100 ms) after ${visible.map(ms).join(', ')} ms.`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at ${commitOf()}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)} (the machine is shared; other work ran).`,
    '<!-- dashboard-reviews:end -->',
  ].join('\n');
  replaceSection('dashboard-reviews', section);
}

await main();
