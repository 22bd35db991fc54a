// Google's product review feed 2.4 against the real database: validated with xmllint against Google's schema,
// complete each time (what it must leave out is absent), cached and conditional, behind a per-shop key.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import { buildApp } from '../app.js';
import { createLogger, redactUrl } from '../log.js';
import type { NewReview, ReviewProduct } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { product } from './feed-fixtures.js';
import { GoogleFeedFiles } from './google-build.js';

const XMLLINT = '/usr/bin/xmllint';
const XSD = fileURLToPath(new URL('./product_reviews-2.4.xsd', import.meta.url));

/** Validates with xmllint against Google's 2.4 schema; the test fails, saying why, when xmllint is not installed. */
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
let shop: Webshop;
let key: string;
const ids: Record<string, number> = {};

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET as Merchant Center sends it, with no decoding done for us (fetch would gunzip silently). */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const feedPath = (shopId: number, k: string | undefined) =>
  `/webshops/${shopId}/feeds/google-product-reviews.xml${k === undefined ? '' : `?key=${encodeURIComponent(k)}`}`;

/**
 * The feed once built for the shop's data as it stands: a fetch (which answers the previous build while a rebuild
 * runs longer than its wait, and starts the rebuild), the rebuild waited for, and the fetch Merchant Center would
 * make next.
 */
async function feed(k = key, s: Pick<Webshop, 'id'> = shop): Promise<string> {
  await get(feedPath(s.id, k), { 'accept-encoding': 'gzip' });
  await t.services.googleFeeds.whenBuilt(s.id);
  return fetched(k, s);
}

/** One fetch, as it comes (possibly the previous build while a rebuild runs). */
async function fetched(k = key, s: Pick<Webshop, 'id'> = shop): Promise<string> {
  const res = await get(feedPath(s.id, k), { 'accept-encoding': 'gzip' });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('gzip');
  return gunzipSync(res.body).toString('utf8');
}

const entries = (xml: string) => xml.match(/<review>.*?<\/review>/g) ?? [];
const reviewIds = (xml: string) => entries(xml).map((e) => /<review_id>([^<]*)</.exec(e)![1]);
/** The names of an element's children, in order (the feed has no whitespace between elements). */
function childNames(xml: string): string[] {
  const names: string[] = [];
  let depth = 0;
  for (const m of xml.matchAll(/<(\/?)([a-z_]+)[^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else {
      if (depth === 1) names.push(m[2]!);
      if (!m[3]) depth++;
    }
  }
  return names;
}

const bike = (over: Partial<ReviewProduct> = {}) =>
  product({ external_id: '101', url: 'https://fiets.example/racefiets', brand: 'Gazelle', mpn: 'G-1', ...over });

async function write(input: Partial<NewReview> & Pick<NewReview, 'name'>, s: Webshop = shop): Promise<number> {
  const review = await t.services.reviews.create(s.id, {
    email: `${input.name.toLowerCase()}@example.com`,
    rating: 5,
    language: 'nl',
    source: 'invitation',
    verified: true,
    ...input,
  });
  return review.id;
}

const sessions = new Map<string, Record<string, string>>();
async function dashboard(role: Role, method: string, path: string, s: Webshop = shop) {
  const k = `${role}:${s.id}`;
  if (!sessions.has(k)) {
    const agent = await signedInAgent(t, { email: `${role}-${s.id}@merchant.example`, shopId: s.id, role });
    sessions.set(k, agent.headers);
  }
  const res = await t.fetch(`/dashboard/api/shops/${s.id}${path}`, { method, headers: sessions.get(k) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'google-feed-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  shop = await t.createShop({ name: 'Fiets & Co', url: 'https://fiets.example/' });
  ids.anna = await write({
    name: 'Anna',
    comment: 'Snelle levering',
    country: 'NL',
    created: new Date('2026-05-02T10:00:00Z'),
    products: [bike({ rating: 4, content: 'Rijdt <heerlijk> & licht' })],
  });
  ids.popup = await write({
    name: '',
    rating: 3,
    comment: 'Prima fiets',
    country: '',
    source: 'popup',
    verified: false,
    incentivised: true,
    products: [bike({ external_id: '', sku: 'BEL-2', gtin: '', mpn: '', brand: '', name: 'Bel' })],
  });
  const photo = (id: string, state: 'shown' | 'held') =>
    ({ id, state, alt: '', width: 800, height: 600, thumbWidth: 320, thumbHeight: 240 }) as const;
  ids.photos = await write({
    name: 'Pim',
    comment: 'Met foto',
    products: [bike({ content: 'Zie foto' })],
    photos: [photo('A'.repeat(22), 'shown'), photo('B'.repeat(22), 'held')],
  });
  ids.ratingOnly = await write({ name: 'Rinus', comment: null, products: [bike({ rating: 5 })] });
  ids.noUrl = await write({
    name: 'Nora',
    comment: 'Goed',
    products: [product({ external_id: 'zadel', name: 'Zadel', url: '' }), bike({ content: 'Ook goed' })],
  });
  ids.ftpUrl = await write({
    name: 'Fenna',
    comment: 'Goed',
    products: [product({ external_id: 'slot', name: 'Slot', url: 'ftp://fiets.example/slot' })],
  });
  ids.held = await write({ name: 'Henk', comment: 'Wacht', quarantine: true, products: [bike()] });
  ids.imported = await write({
    name: 'Ingrid',
    comment: 'Van elders',
    source: 'import',
    verified: false,
    products: [bike({ content: 'Geïmporteerd' })],
  });
  await t.db.collection('imported_product_reviews').insertOne({
    _id: `${shop.id}|yotpo:1` as never,
    shopId: shop.id,
    product: { external_id: '101', name: 'Racefiets', url: 'https://fiets.example/racefiets' },
    rating: 5,
    text: 'Geïmporteerd productreview',
    status: 'published',
  });
  key = (await (await t.admin(`/admin/api/webshops/${shop.id}/google-feed`)).json()).key;
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET /webshops/:id/feeds/google-product-reviews.xml', () => {
  it('is valid against Google’s 2.4 schema (xmllint)', async () => {
    const xml = await feed();
    const result = await xmllint(xml);
    expect(result.output).toContain('- validates');
    expect(result.ok).toBe(true);
  });

  it('lists every published product review with text and a product URL, and nothing else', async () => {
    const xml = await feed();
    expect(reviewIds(xml).sort()).toEqual(
      [`${ids.anna}-1`, `${ids.popup}-1`, `${ids.noUrl}-2`, `${ids.photos}-1`].sort(),
    );
    expect(xml).not.toContain('Geïmporteerd');
    expect(xml).not.toContain('Zadel');
    expect(xml).not.toContain('Slot');
  });

  it('gives each review’s elements in the schema’s order', async () => {
    const anna = entries(await feed()).find((e) => e.includes(`<review_id>${ids.anna}-1<`))!;
    expect(childNames(anna)).toEqual([
      'review_id',
      'reviewer',
      'review_language',
      'review_country',
      'review_timestamp',
      'content',
      'review_url',
      'ratings',
      'products',
      'is_spam',
      'is_verified_purchase',
      'is_incentivized_review',
      'collection_method',
    ]);
    expect(anna).toContain('<reviewer><name>Anna</name></reviewer>');
    expect(anna).toContain('<review_language>nl</review_language><review_country>NL</review_country>');
    expect(anna).toContain('<review_timestamp>2026-05-02T10:00:00+00:00</review_timestamp>');
    expect(anna).toContain('<content>Rijdt &lt;heerlijk&gt; &amp; licht</content>');
    expect(anna).toContain(
      `<review_url type="singleton">http://127.0.0.1:1/webshops/${shop.id}/reviews/${ids.anna}</review_url>`,
    );
    expect(anna).toContain('<ratings><overall min="1" max="5">4</overall></ratings>');
    expect(anna).toContain(
      '<product><product_ids><gtins><gtin>8712345678906</gtin></gtins><mpns><mpn>G-1</mpn></mpns><skus><sku>RF-1</sku></skus><brands><brand>Gazelle</brand></brands></product_ids><product_name>Racefiets</product_name><product_url>https://fiets.example/racefiets</product_url></product>',
    );
    expect(anna).toContain(
      '<is_spam>false</is_spam><is_verified_purchase>true</is_verified_purchase><is_incentivized_review>false</is_incentivized_review><collection_method>post_fulfillment</collection_method>',
    );
  });

  it('marks an anonymous, unverified, incentivised pop-up review so; its text is the review’s when the product has none', async () => {
    const popup = entries(await feed()).find((e) => e.includes(`<review_id>${ids.popup}-1<`))!;
    expect(popup).toContain('<name is_anonymous="true">Anonymous</name>');
    expect(popup).not.toContain('<review_country>');
    expect(popup).toContain('<content>Prima fiets</content>');
    expect(popup).toContain('<is_verified_purchase>false</is_verified_purchase>');
    expect(popup).toContain('<is_incentivized_review>true</is_incentivized_review>');
    expect(popup).toContain('<collection_method>unsolicited</collection_method>');
  });

  it('gives the review’s shown photos as reviewer_images (held ones not)', async () => {
    const entry = entries(await feed()).find((e) => e.includes(`<review_id>${ids.photos}-1<`))!;
    expect(entry).toContain(
      `</review_url><reviewer_images><reviewer_image><url>http://127.0.0.1:1/photos/${'A'.repeat(22)}.webp</url></reviewer_image></reviewer_images><ratings>`,
    );
    expect(entry).not.toContain('B'.repeat(22));
  });

  it('drops a removed review at the next fetch once the rebuild its removal started has finished', async () => {
    const gone = await write({ name: 'Gijs', comment: 'Even hier', products: [bike({ content: 'Kort' })] });
    expect(reviewIds(await feed())).toContain(`${gone}-1`);
    await t.services.reviews.softDelete(gone);
    // The first fetch after the removal starts the rebuild (and may answer the previous build meanwhile) ...
    await fetched();
    await t.services.googleFeeds.whenBuilt(shop.id);
    // ... the next one, after it, no longer lists the review.
    const next = await fetched();
    expect(reviewIds(next)).not.toContain(`${gone}-1`);
    expect((await xmllint(next)).ok).toBe(true);
  });

  it('answers 304 to a repeated fetch (If-None-Match, If-Modified-Since), and a new ETag once the reviews change', async () => {
    const first = await get(feedPath(shop.id, key), { 'accept-encoding': 'gzip' });
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(lastModified).toBeTruthy();
    expect((await get(feedPath(shop.id, key), { 'if-none-match': etag })).status).toBe(304);
    expect((await get(feedPath(shop.id, key), { 'if-modified-since': lastModified })).status).toBe(304);
    await write({ name: 'Nieuw', comment: 'Nieuw', products: [bike({ content: 'Nieuw' })] });
    await get(feedPath(shop.id, key), { 'if-none-match': etag });
    await t.services.googleFeeds.whenBuilt(shop.id);
    const changed = await get(feedPath(shop.id, key), { 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('sends the XML unzipped to a client that does not take gzip', async () => {
    const res = await get(feedPath(shop.id, key), { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.toString('utf8')).toBe(await feed());
  });

  it('answers a wrong or missing key exactly as an unknown shop: 404', async () => {
    const unknown = await get(feedPath(999_999, key));
    expect(unknown.status).toBe(404);
    // The last character changed to another one: a random key ends in `x` one time in 64.
    const wrong = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (const path of [feedPath(shop.id, wrong), feedPath(shop.id, undefined), feedPath(shop.id, '')]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body.toString()).toBe(unknown.body.toString());
    }
  });

  it('records the last fetch with the valid key', async () => {
    await feed();
    const access = await (await t.admin(`/admin/api/webshops/${shop.id}/google-feed`)).json();
    expect(Date.parse(access.last_fetched_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(access.url).toBe(`http://127.0.0.1:1${feedPath(shop.id, key)}`);
  });

  it('masks the key in logged URLs', () => {
    expect(redactUrl(feedPath(shop.id, key))).toBe(
      `/webshops/${shop.id}/feeds/google-product-reviews.xml?key=%5Bredacted%5D`,
    );
  });
});

describe('the feed key', () => {
  it('rotates through the operator API at once (audited): the old key answers 404', async () => {
    const s = await t.createShop({ name: 'Draai', url: 'https://draai.example/' });
    const old = (await (await t.admin(`/admin/api/webshops/${s.id}/google-feed`)).json()).key as string;
    expect((await get(feedPath(s.id, old))).status).toBe(200);
    const res = await t.admin(`/admin/api/webshops/${s.id}/google-feed/key`, { method: 'POST' });
    expect(res.status).toBe(200);
    const rotated = (await res.json()).key as string;
    expect(rotated).not.toBe(old);
    expect((await get(feedPath(s.id, old))).status).toBe(404);
    expect((await get(feedPath(s.id, rotated))).status).toBe(200);
    const actions = (await t.services.audit.list({ shopId: s.id, limit: 10 })).map((e) => e.action);
    expect(actions).toContain('google_feed.key_rotated');
  });

  it('rotates through the dashboard for owners and managers (audited), not for support', async () => {
    const s = await t.createShop({ name: 'Dash', url: 'https://dash.example/' });
    const before = (await dashboard('manager', 'GET', '/google', s)).json.key as string;
    expect((await dashboard('support', 'GET', '/google', s)).status).toBe(403);
    expect((await dashboard('support', 'POST', '/google/key', s)).status).toBe(403);
    const rotated = await dashboard('owner', 'POST', '/google/key', s);
    expect(rotated.status).toBe(200);
    expect(rotated.json.key).not.toBe(before);
    expect((await get(feedPath(s.id, before))).status).toBe(404);
    expect((await get(feedPath(s.id, rotated.json.key))).status).toBe(200);
    const actions = (await t.services.audit.list({ shopId: s.id, limit: 10 })).map((e) => e.action);
    expect(actions).toContain('google_feed.key_rotated');
  });

  it('stops the old key at once in another process too (the key is read on every fetch, never cached)', async () => {
    const other = await buildApp({ config: t.services.config, db: t.db as never, log: createLogger('silent') });
    const server = createServer(other.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const s = await t.createShop({ name: 'Twee', url: 'https://twee.example/' });
      const old = (await (await t.admin(`/admin/api/webshops/${s.id}/google-feed`)).json()).key as string;
      expect((await fetch(`${otherUrl}${feedPath(s.id, old)}`)).status).toBe(200);
      await t.admin(`/admin/api/webshops/${s.id}/google-feed/key`, { method: 'POST' });
      expect((await fetch(`${otherUrl}${feedPath(s.id, old)}`)).status).toBe(404);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('answers 404 for the operator’s view of an unknown shop', async () => {
    expect((await t.admin('/admin/api/webshops/999999/google-feed')).status).toBe(404);
  });
});

describe('GET /webshops/:id/reviews/:rid (the review_url)', () => {
  it('shows one published review, escaped, and 404 for one held or of another shop', async () => {
    const script = await write({
      name: '<script>x</script>',
      comment: '</p><script>alert(1)</script>',
      products: [bike({ content: 'Fijn' })],
    });
    const res = await t.fetch(`/webshops/${shop.id}/reviews/${script}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<p class="text">&lt;/p>&lt;script>alert(1)&lt;/script></p>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Racefiets');
    expect((await t.fetch(`/webshops/${shop.id}/reviews/${ids.held}`)).status).toBe(404);
    const other = await t.createShop({ name: 'Ander' });
    const otherRes = await t.fetch(`/webshops/${other.id}/reviews/${ids.anna}`);
    expect(otherRes.status).toBe(404);
    expect(otherRes.headers.get('content-type')).toContain('text/html');
  });
});

describe('readiness (dashboard)', () => {
  it('gives the figures next to Google’s thresholds, from the fixtures', async () => {
    const s = await t.createShop({ name: 'Klaar', url: 'https://klaar.example/' });
    const recent = new Date(Date.now() - 30 * 86_400_000);
    for (let i = 0; i < 3; i++) {
      await write(
        { name: `Be${i}`, rating: 4, comment: 'Goed', country: 'BE', created: recent, products: [bike({ rating: 5 })] },
        s,
      );
    }
    await write({ name: 'Nl', rating: 2, comment: 'Matig', country: 'NL', created: recent, products: [] }, s);
    await write({ name: 'Old', rating: 5, comment: 'Lang geleden', country: 'NL', created: new Date('2020-01-01') }, s);
    await write({ name: 'Unknown', rating: 3, comment: null, created: recent, products: [bike({ rating: 3 })] }, s);
    await write(
      {
        name: 'NoIds',
        rating: 5,
        comment: 'Ok',
        created: recent,
        products: [
          product({ external_id: 'x', gtin: '', mpn: 'M-1', brand: '', url: 'https://klaar.example/x' }),
          product({ external_id: 'y', url: '' }),
        ],
      },
      s,
    );
    await write({ name: 'Imp', comment: 'Elders', source: 'import', verified: false, created: recent }, s);

    const res = await dashboard('manager', 'GET', '/google', s);
    expect(res.status).toBe(200);
    const { readiness } = res.json;
    expect(res.json.url).toBe(`http://127.0.0.1:1${feedPath(s.id, res.json.key)}`);
    expect(res.json.last_fetched_at).toBeNull();
    expect(readiness.product_reviews).toEqual({ count: 4, threshold: 50, meets: false });
    // Products: 101 (three reviews) and x in the feed, x without GTIN or MPN + brand; y without a URL.
    expect(readiness.products_left_out).toEqual({ without_url: 1, without_ids: 1, in_feed: 2 });
    expect(readiness.store_reviews_12_months).toEqual({
      threshold: 100,
      countries: [
        { country: 'BE', reviews: 3, meets: false },
        { country: 'unknown', reviews: 2, meets: false },
        { country: 'NL', reviews: 1, meets: false },
      ],
    });
    // Store: (4 + 4 + 4 + 2 + 3 + 5) / 6; products: (5 + 5 + 5 + 5) / 4 (x takes the review's 5).
    expect(readiness.average_score).toEqual({ products: 5, store: 3.7, threshold: 3.5, meets: true });
    expect(readiness.imported_reviews).toBe(1);
    expect(res.json.has_imported_reviews).toBe(true);
  });
});

describe('rebuilds (stale while rebuilding)', () => {
  /** Feed files over the test's database in their own directory, as another process of the host would build them. */
  function files(dir: string, builds: { count: number }) {
    const reviews = t.services.reviews;
    return new GoogleFeedFiles({
      reviews: {
        versionsOf: (shopId) => reviews.versionsOf(shopId),
        publishedForFeed: (shopId, batch) => {
          builds.count++;
          return reviews.publishedForFeed(shopId, batch);
        },
      },
      dir,
      brandName: 'Test',
      baseUrl: 'http://127.0.0.1:1',
      now: () => new Date(),
      // No wait: a fetch during a rebuild always answers the previous build.
      rebuildWaitMs: 0,
    });
  }
  const xmlOf = async (built: { file: string }) => gunzipSync(await readFile(built.file)).toString('utf8');

  it('answers the previous build while the rebuild runs, then the new one; the first build is waited for', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'google-feed-stale-'));
    try {
      const s = await t.createShop({ name: 'Stale', url: 'https://stale.example/' });
      const k = await t.services.feedKeys.keyOf(s.id);
      const builds = { count: 0 };
      const feeds = files(dir, builds);
      const kept = await write({ name: 'Kees', comment: 'Blijft', products: [bike({ content: 'Blijft' })] }, s);
      const gone = await write({ name: 'Gerda', comment: 'Gaat', products: [bike({ content: 'Gaat' })] }, s);
      const first = await feeds.current(s, k);
      expect(reviewIds(await xmlOf(first))).toEqual(expect.arrayContaining([`${kept}-1`, `${gone}-1`]));
      expect(builds.count).toBe(1);

      await t.services.reviews.softDelete(gone);
      const during = await feeds.current(s, k);
      // The fetch that found the change answers the build before it (same ETag: a conditional fetch gets 304) ...
      expect(during.etag).toBe(first.etag);
      expect(reviewIds(await xmlOf(during))).toContain(`${gone}-1`);
      await feeds.whenBuilt(s.id);
      expect(builds.count).toBe(2);
      // ... and the next fetch after the rebuild no longer has the removed review.
      const after = await feeds.current(s, k);
      expect(after.etag).not.toBe(first.etag);
      expect(reviewIds(await xmlOf(after))).toEqual([`${kept}-1`]);
      expect((await xmllint(await xmlOf(after))).ok).toBe(true);
      expect(builds.count).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('builds once per change across processes sharing the directory, and once per process however many fetch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'google-feed-lock-'));
    try {
      const s = await t.createShop({ name: 'Lock', url: 'https://lock.example/' });
      const k = await t.services.feedKeys.keyOf(s.id);
      const builds = { count: 0 };
      const [one, two] = [files(dir, builds), files(dir, builds)];
      await write({ name: 'Lotte', comment: 'Een', products: [bike({ content: 'Een' })] }, s);
      const firsts = await Promise.all([one.current(s, k), two.current(s, k), one.current(s, k), two.current(s, k)]);
      expect(new Set(firsts.map((f) => f.etag)).size).toBe(1);
      expect(builds.count).toBe(1);

      await write({ name: 'Twan', comment: 'Twee', products: [bike({ content: 'Twee' })] }, s);
      await Promise.all([one.current(s, k), two.current(s, k), one.current(s, k), two.current(s, k)]);
      await Promise.all([one.whenBuilt(s.id), two.whenBuilt(s.id)]);
      expect(builds.count).toBe(2);
      const [a, b] = await Promise.all([one.current(s, k), two.current(s, k)]);
      expect(a.etag).toBe(b.etag);
      expect(a.etag).not.toBe(firsts[0]!.etag);
      expect(builds.count).toBe(2);
      // The lock is gone once the build ended.
      expect(existsSync(join(dir, `${s.id}.build.lock`))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
