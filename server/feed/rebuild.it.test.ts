// Rebuilds of the Google feed queued by review changes (rebuild-queue.ts, rebuild-jobs.ts), against the real
// database: a removal is out of the file Google gets at its next fetch, even when every fetch answers the previous
// build while a rebuild runs (here a fetch never waits: `rebuildWaitMs: 0`, the large shop's case).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { NewReview, ReviewProduct } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { eraseCustomer } from '../customers/erase.js';
import { product } from './feed-fixtures.js';
import { GoogleFeedFiles } from './google-build.js';
import { drainFeedRebuilds, FEED_REBUILD_JOB } from './rebuild-jobs.js';
import { FEED_IN_USE_DAYS, FEED_REBUILD_DEBOUNCE_MS, FEED_REBUILD_LEASE_MS, runningKey } from './rebuild-queue.js';

const XMLLINT = '/usr/bin/xmllint';
const XSD = fileURLToPath(new URL('./product_reviews-2.4.xsd', import.meta.url));

function xmllint(xml: string): Promise<{ ok: boolean; output: string }> {
  if (!existsSync(XMLLINT)) {
    throw new Error(`${XMLLINT} is missing: install libxml2-utils (apt-get install libxml2-utils) to run this test`);
  }
  return new Promise((resolve) => {
    const child = execFile(XMLLINT, ['--noout', '--schema', XSD, '-'], (err, stdout, stderr) =>
      resolve({ ok: !err, output: `${stdout}${stderr}` }),
    );
    child.stdin!.end(xml);
  });
}

let t: TestApp;
let dataDir: string;
/** The service's clock runs this far ahead of the real one: the tests move it past the debounce. */
let offset = 0;
const later = (ms: number) => {
  offset += ms;
};
/** Builds done by the service's feed files (each reads the shop's published reviews once). */
const builds = new Map<number, number>();
const buildsOf = (s: Pick<Webshop, 'id'>) => builds.get(s.id) ?? 0;

function get(path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** One fetch as Merchant Center makes it, with the shop's key. */
async function fetchFeed(s: Pick<Webshop, 'id'>): Promise<string> {
  const { key } = await t.services.feedKeys.keyOf(s.id);
  const res = await get(`/webshops/${s.id}/feeds/google-product-reviews.xml?key=${encodeURIComponent(key)}`);
  expect(res.status).toBe(200);
  return gunzipSync(res.body).toString('utf8');
}

const reviewIds = (xml: string) => [...xml.matchAll(/<review_id>([^<]*)</g)].map((m) => m[1]);
const bike = (over: Partial<ReviewProduct> = {}) =>
  product({ external_id: '101', url: 'https://fiets.example/racefiets', brand: 'Gazelle', mpn: 'G-1', ...over });

async function write(s: Webshop, input: Partial<NewReview> & Pick<NewReview, 'name'>): Promise<number> {
  const review = await t.services.reviews.create(s.id, {
    email: `${input.name.toLowerCase()}@example.com`,
    rating: 5,
    language: 'nl',
    source: 'invitation',
    verified: true,
    comment: `Review van ${input.name}`,
    products: [bike({ content: `Fiets van ${input.name}` })],
    ...input,
  });
  return review.id;
}

/** The queued rebuild items of a shop (its change, its running build). */
async function queuedFor(s: Pick<Webshop, 'id'>): Promise<string[]> {
  const items = await t.services.feedRebuilds.peek(1000);
  return items.map((i) => i._id).filter((id) => id === String(s.id) || id === runningKey(s.id));
}

/** A shop with `count` product reviews whose feed Merchant Center fetched (the first build, waited for). */
async function shopInUse(name: string, count: number): Promise<{ shop: Webshop; ids: number[] }> {
  const shop = await t.createShop({ name, url: `https://${name.toLowerCase()}.example/` });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await write(shop, { name: `${name}${i}` }));
  expect(reviewIds(await fetchFeed(shop))).toHaveLength(count);
  return { shop, ids };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'google-feed-rebuild-'));
  t = await startTestApp({ DATA_DIR: dataDir }, { now: () => new Date(Date.now() + offset) });
  const reviews = t.services.reviews;
  // The large shop's case for every shop: a fetch that finds a rebuild to do never waits for it, it answers the
  // previous build. Routes and the drain read `services.googleFeeds` when they run.
  t.services.googleFeeds = new GoogleFeedFiles({
    reviews: {
      versionsOf: (shopId) => reviews.versionsOf(shopId),
      publishedForFeed: (shopId, batch) => {
        builds.set(shopId, (builds.get(shopId) ?? 0) + 1);
        return reviews.publishedForFeed(shopId, batch);
      },
    },
    dir: join(dataDir, 'google-feeds'),
    brandName: 'Test',
    baseUrl: 'http://127.0.0.1:1',
    now: t.services.now,
    rebuildWaitMs: 0,
  });
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a review change queues the rebuild of a used feed', () => {
  it('removes a review from the file of the next fetch: the worker built it in between', async () => {
    const { shop, ids } = await shopInUse('Groot', 25);
    const gone = ids[7]!;
    const before = buildsOf(shop);

    await t.services.reviews.softDelete(gone);
    expect(await queuedFor(shop)).toEqual([String(shop.id)]);
    // Not before the debounce: a burst of changes makes one build.
    await drainFeedRebuilds(t.services);
    expect(buildsOf(shop)).toBe(before);

    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    await drainFeedRebuilds(t.services);
    expect(buildsOf(shop)).toBe(before + 1);
    expect(await queuedFor(shop)).toEqual([]);

    // The next fetch finds the file built (it starts no build, and never waits for one) without the review.
    const xml = await fetchFeed(shop);
    expect(buildsOf(shop)).toBe(before + 1);
    expect(reviewIds(xml)).toHaveLength(24);
    expect(reviewIds(xml)).not.toContain(`${gone}-1`);
    const lint = await xmllint(xml);
    expect(lint.output).toContain('- validates');
    expect(lint.ok).toBe(true);
  });

  it('without the queued rebuild, the stale fetch would still have listed the review (the gap it closes)', async () => {
    const { shop, ids } = await shopInUse('Zonder', 3);
    await t.services.reviews.softDelete(ids[0]!);
    // Left in the queue on purpose: the fetch answers the previous build, which still lists the removed review.
    expect(reviewIds(await fetchFeed(shop))).toContain(`${ids[0]}-1`);
    await t.services.googleFeeds.whenBuilt(shop.id);
  });

  it('collapses many changes (removal, unpublication, erasure, edit) into one build', async () => {
    const { shop, ids } = await shopInUse('Druk', 8);
    const before = buildsOf(shop);
    await t.services.reviews.softDelete(ids[0]!);
    await t.services.reviews.softDelete(ids[1]!);
    await t.services.reviews.update(ids[2]!, { quarantine: true });
    await eraseCustomer(t.services, { email: `druk3@example.com`, shopId: shop.id });
    await t.services.reviews.update(ids[4]!, { comment: 'Toch anders', products: [bike({ content: 'Anders' })] });
    expect(await queuedFor(shop)).toEqual([String(shop.id)]);

    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    await drainFeedRebuilds(t.services);
    expect(buildsOf(shop)).toBe(before + 1);
    expect(await queuedFor(shop)).toEqual([]);

    const xml = await fetchFeed(shop);
    expect(buildsOf(shop)).toBe(before + 1);
    const sent = reviewIds(xml);
    for (const id of ids.slice(0, 3)) expect(sent).not.toContain(`${id}-1`);
    expect(sent).toHaveLength(5);
    expect(xml).not.toContain('Fiets van Druk3');
    expect(xml).toContain('Anders');
    expect((await xmllint(xml)).ok).toBe(true);
  });

  it('queues a change during a build again: it is not lost to the queued item', async () => {
    const { shop, ids } = await shopInUse('Tijdens', 3);
    await t.services.reviews.softDelete(ids[0]!);
    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    // The second removal lands once the worker took the first change (its item went before the build).
    const taken = t.services.feedRebuilds.take('test-holder', 10);
    const items = (await taken).filter((i) => i.payload.shopId === shop.id);
    for (const item of items) await t.services.feedRebuilds.start('test-holder', item);
    await t.services.reviews.softDelete(ids[1]!);
    expect((await queuedFor(shop)).sort()).toEqual([String(shop.id), runningKey(shop.id)].sort());
    await t.services.feedRebuilds.release('test-holder');
    // The crashed "worker" left its running item: the next run builds, and the new change's debounce too.
    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    later(FEED_REBUILD_LEASE_MS);
    await drainFeedRebuilds(t.services);
    expect(await queuedFor(shop)).toEqual([]);
    const sent = reviewIds(await fetchFeed(shop));
    expect(sent).toEqual([`${ids[2]}-1`]);
  });
  it('tries a failed build again later, and builds then', async () => {
    const { shop, ids } = await shopInUse('Fout', 2);
    await t.services.reviews.softDelete(ids[0]!);
    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    const feeds = t.services.googleFeeds;
    const refresh = feeds.refresh;
    feeds.refresh = async () => {
      throw new Error('disk full');
    };
    try {
      await drainFeedRebuilds(t.services);
    } finally {
      feeds.refresh = refresh;
    }
    const [left] = (await t.services.feedRebuilds.peek(1000)).filter((i) => i._id === runningKey(shop.id));
    expect(left).toMatchObject({ attempts: 1, lastError: 'Error: disk full' });
    later(2 * 60_000);
    await drainFeedRebuilds(t.services);
    expect(await queuedFor(shop)).toEqual([]);
    expect(reviewIds(await fetchFeed(shop))).toEqual([`${ids[1]}-1`]);
  });
});

describe('what queues nothing', () => {
  it('a shop without a feed key, one whose key was never fetched, and one not fetched for 30 days', async () => {
    const noKey = await t.createShop({ name: 'Geen', url: 'https://geen.example/' });
    const a = await write(noKey, { name: 'Gerrit' });
    await t.services.reviews.softDelete(a);
    expect(await queuedFor(noKey)).toEqual([]);

    const unfetched = await t.createShop({ name: 'Nooit', url: 'https://nooit.example/' });
    await t.services.feedKeys.keyOf(unfetched.id);
    const b = await write(unfetched, { name: 'Nico' });
    await t.services.reviews.softDelete(b);
    expect(await queuedFor(unfetched)).toEqual([]);

    const { shop: idle, ids } = await shopInUse('Stil', 2);
    later((FEED_IN_USE_DAYS + 1) * 86_400_000);
    await t.services.reviews.softDelete(ids[0]!);
    expect(await queuedFor(idle)).toEqual([]);
  });

  it('a new review, a review that was never in the feed, and a change the feed does not send', async () => {
    const { shop, ids } = await shopInUse('Nieuw', 1);
    await write(shop, { name: 'Nieuwe' });
    const ratingOnly = await write(shop, { name: 'Cijfer', comment: null, products: [bike({ content: '' })] });
    await t.services.reviews.softDelete(ratingOnly);
    await t.services.reviews.update(ids[0]!, { read: false });
    expect(await queuedFor(shop)).toEqual([]);
  });
});

describe('the worker', () => {
  it('runs the rebuilds as its job feeds.google.rebuild', async () => {
    const { shop, ids } = await shopInUse('Werker', 2);
    const before = buildsOf(shop);
    await t.services.reviews.softDelete(ids[0]!);
    later(FEED_REBUILD_DEBOUNCE_MS + 1000);
    await t.services.scheduler.start();
    try {
      t.services.scheduler.trigger(FEED_REBUILD_JOB);
      for (let i = 0; i < 600 && (await queuedFor(shop)).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await queuedFor(shop)).toEqual([]);
    } finally {
      await t.services.scheduler.stop();
    }
    expect(buildsOf(shop)).toBe(before + 1);
    expect(reviewIds(await fetchFeed(shop))).toEqual([`${ids[1]}-1`]);
  });
});
