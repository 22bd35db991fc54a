import { request } from 'node:http';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { storedReview } from '../../test/review-fixture.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import { CsvParser } from '../dashboard/csv.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { INVITATION_COLUMNS, REVIEW_COLUMNS } from './records.js';

let t: TestApp;
let shop: Webshop;
let other: Webshop;

const FORMULA = '=HYPERLINK("http://evil.example","click")';
const QUOTED = 'He said "great, really"\nand then a second line';
const day = (d: string) => new Date(`${d}T10:00:00Z`);

/** Reviews written straight into the collection, as the store keeps them (keyed by id). */
async function insertReviews(reviews: Review[]): Promise<void> {
  await t.db.collection('reviews').insertMany(reviews.map((r) => ({ _id: r.id, ...r })) as never[]);
}

const sessions = new Map<string, Record<string, string>>();
async function as(role: Role, s: Webshop = shop): Promise<Record<string, string>> {
  const key = `${role}:${s.id}`;
  if (!sessions.has(key))
    sessions.set(
      key,
      (await signedInAgent(t, { email: `${role}-${s.id}@merchant.example`, shopId: s.id, role })).headers,
    );
  return sessions.get(key)!;
}

/** The records of a CSV export: the header checked, then each row as an object by column name. */
function csvRecords(bytes: Uint8Array, columns: readonly (readonly [string, unknown])[]): Record<string, string>[] {
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const parser = new CsvParser({ fieldChars: 100_000, fields: 100 });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
  const [header, ...rows] = [...parser.push(text), ...parser.end()];
  expect(header!.fields).toEqual(columns.map(([name]) => name));
  return rows.map((row) => {
    expect(row.error).toBeUndefined();
    return Object.fromEntries(header!.fields.map((name, i) => [name, row.fields[i]!]));
  });
}

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Export Shop' });
  other = await t.createShop({ name: 'Other Shop' });
  await insertReviews([
    storedReview({ id: 9001, shopId: shop.id, email: 'formula@customer.example', comment: FORMULA }),
    storedReview({
      id: 9002,
      shopId: shop.id,
      email: 'quotes@customer.example',
      comment: QUOTED,
      reply: { text: '-thank you', date: day('2026-02-02'), notify: false, revision: 1, notified: null },
      products: [
        {
          external_id: 'P-1',
          name: 'Teapot, "large"',
          url: 'https://shop.example/teapot',
          image_url: '',
          sku: 'TP-1',
          gtin: '4006381333931',
          mpn: '',
          brand: 'Pots',
          rating: 5,
          content: 'Pours well',
        },
      ],
    }),
    {
      ...storedReview({
        id: 9003,
        shopId: shop.id,
        email: 'imported@customer.example',
        source: 'import',
        verified: false,
        origin: 'imported',
        imported_from: 'Yotpo',
        original_date: day('2024-05-01'),
        created: day('2026-03-01'),
        comment: '@mention at the start',
      }),
      experience_date: day('2024-04-20'),
    } as Review,
    storedReview({
      id: 9004,
      shopId: shop.id,
      email: 'held@customer.example',
      quarantine: true,
      published: false,
      comment: 'Held back',
    }),
    storedReview({ id: 9100, shopId: other.id, email: 'other@customer.example', comment: 'OTHER SHOP' }),
  ]);
  await t.services.invitations.add(shop.id, {
    ...invitationInput('anna@customer.example', 'O-1'),
    customerName: '+Anna',
  });
  await t.services.invitations.add(shop.id, invitationInput('bob@customer.example', 'O-2'));
  await t.services.invitations.add(other.id, invitationInput('carol@customer.example', 'O-3'));
});
afterAll(() => t.close());

describe('operator: GET /admin/api/webshops/:id/reviews/export', () => {
  it('CSV: BOM, stable header, every review of the shop and no other, formulas inert, quotes and line breaks kept', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="shop-${shop.id}-reviews-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const rows = csvRecords(new Uint8Array(await res.arrayBuffer()), REVIEW_COLUMNS);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual(['9001', '9002', '9003', '9004']);
    expect(byId.get('9001')!.comment).toBe(`'${FORMULA}`);
    expect(byId.get('9001')!.email).toBe('formula@customer.example');
    expect(byId.get('9002')!.comment).toBe(QUOTED);
    expect(byId.get('9002')!.reply).toBe("'-thank you");
    expect(byId.get('9002')!.reply_date).toBe('2026-02-02T10:00:00.000Z');
    expect(JSON.parse(byId.get('9002')!.products!)).toEqual([
      expect.objectContaining({ id: 'P-1', name: 'Teapot, "large"', gtin: '4006381333931', rating: 5 }),
    ]);
    expect(byId.get('9003')).toMatchObject({
      comment: "'@mention at the start",
      origin: 'imported',
      imported_from: 'Yotpo',
      original_date: '2024-05-01T10:00:00.000Z',
      experience_date: '2024-04-20T10:00:00.000Z',
      status: 'published',
    });
    expect(byId.get('9004')!.status).toBe('quarantined');
    // No photos: an empty cell.
    expect(rows.every((r) => r.photo_urls === '')).toBe(true);
  });

  it('JSON: one array of records with replies, dates, products, photos and status', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/filename="shop-\d+-reviews-[\d-]+\.json"$/);
    const records = (await res.json()) as Record<string, unknown>[];
    expect(records.map((r) => r.id).sort()).toEqual([9001, 9002, 9003, 9004]);
    const quoted = records.find((r) => r.id === 9002)!;
    expect(quoted).toMatchObject({
      comment: QUOTED,
      email: 'quotes@customer.example',
      replies: [{ text: '-thank you', date: '2026-02-02T10:00:00.000Z' }],
      photo_urls: [],
      status: 'published',
      created: '2026-01-01T00:00:00.000Z',
    });
    // JSON is not for spreadsheets: the text is exactly as written.
    expect(records.find((r) => r.id === 9001)!.comment).toBe(FORMULA);
  });

  it('a shop without reviews gets an empty array, and a CSV of the header alone', async () => {
    const empty = await t.createShop({ name: 'Empty Shop' });
    const json = await t.admin(`/admin/api/webshops/${empty.id}/reviews/export?format=json`);
    expect(await json.json()).toEqual([]);
    const csv = await t.admin(`/admin/api/webshops/${empty.id}/reviews/export?format=csv`);
    expect(csvRecords(new Uint8Array(await csv.arrayBuffer()), REVIEW_COLUMNS)).toEqual([]);
  });

  it('an unknown shop is a 404, a bad format a 400, in the operator envelope; no token is a 401', async () => {
    const missing = await t.admin('/admin/api/webshops/999999/reviews/export?format=csv');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: 'No such webshop.' } });
    const bad = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=xlsx`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'bad_request', message: 'format: must be csv or json' } });
    const twice = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=csv&format=json`);
    expect(twice.status).toBe(400);
    expect((await t.fetch(`/admin/api/webshops/${shop.id}/reviews/export`)).status).toBe(401);
  });

  it('is recorded in the audit trail: who, which, how many', async () => {
    await (await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=json`)).arrayBuffer();
    const entry = await waitForAudit(shop.id, 'reviews.exported', (e) => e.actor.kind === 'operator');
    expect(entry.details).toMatchObject({ format: 'json', records: 4, complete: true, addresses: 'included' });
  });
});

describe('operator: GET /admin/api/webshops/:id/invitations/export', () => {
  it('every invitation of the shop with its address and state, and no other shop’s', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/invitations/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="shop-\d+-invitations-[\d-]+\.csv"$/);
    const rows = csvRecords(new Uint8Array(await res.arrayBuffer()), INVITATION_COLUMNS);
    expect(rows.map((r) => r.email).sort()).toEqual(['anna@customer.example', 'bob@customer.example']);
    expect(rows.find((r) => r.order === 'O-1')).toMatchObject({ name: "'+Anna", state: 'queued', language: 'en' });
  });
});

describe('dashboard: GET /dashboard/api/shops/:shopId/{reviews,invitations}/export', () => {
  const path = (kind: string, format: string, s: Webshop = shop) =>
    `/dashboard/api/shops/${s.id}/${kind}/export?format=${format}`;

  it('an owner gets the addresses', async () => {
    const res = await t.fetch(path('reviews', 'csv'), { headers: await as('owner') });
    expect(res.status).toBe(200);
    const rows = csvRecords(new Uint8Array(await res.arrayBuffer()), REVIEW_COLUMNS);
    expect(rows.map((r) => r.email).sort()).toEqual([
      'formula@customer.example',
      'held@customer.example',
      'imported@customer.example',
      'quotes@customer.example',
    ]);
  });

  it("a manager's review export has the email column, empty; their invitation export has the addresses", async () => {
    const csv = await t.fetch(path('reviews', 'csv'), { headers: await as('manager') });
    expect(csv.status).toBe(200);
    const rows = csvRecords(new Uint8Array(await csv.arrayBuffer()), REVIEW_COLUMNS);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.email === '')).toBe(true);
    const json = await t.fetch(path('reviews', 'json'), { headers: await as('manager') });
    const records = (await json.json()) as { email: unknown }[];
    expect(records.map((r) => r.email)).toEqual([null, null, null, null]);
    const invitations = await t.fetch(path('invitations', 'json'), { headers: await as('manager') });
    expect(((await invitations.json()) as { email: string }[]).map((i) => i.email).sort()).toEqual([
      'anna@customer.example',
      'bob@customer.example',
    ]);
    const entry = await waitForAudit(shop.id, 'reviews.exported', (e) => e.details.addresses === 'withheld');
    expect(entry.actor.kind).toBe('user');
  });

  it('support may export neither (403); another shop is a 404; a bad format a 400 `invalid`', async () => {
    for (const kind of ['reviews', 'invitations']) {
      const res = await t.fetch(path(kind, 'csv'), { headers: await as('support') });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    const elsewhere = await t.fetch(path('reviews', 'csv', other), { headers: await as('owner') });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: { code: 'not_found', message: 'No such webshop.' } });
    const bad = await t.fetch(path('reviews', 'pdf'), { headers: await as('owner') });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'invalid', message: 'format: must be csv or json' } });
    expect((await t.fetch(path('reviews', 'csv'))).status).toBe(401);
  });

  it('refuses a download another site starts in the merchant’s name', async () => {
    const res = await t.fetch(path('reviews', 'csv'), {
      headers: { ...(await as('owner')), 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('csrf');
  });
});

describe('one export per shop at a time', () => {
  it('answers 429 with Retry-After while the shop’s export runs; other shops go on', async () => {
    const slot = await t.services.exportSlots.take(shop.id);
    expect(slot).not.toBeNull();
    try {
      const busy = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=csv`);
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('30');
      expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('export_running');
      const dashboard = await t.fetch(`/dashboard/api/shops/${shop.id}/invitations/export`, {
        headers: await as('owner'),
      });
      expect(dashboard.status).toBe(429);
      const elsewhere = await t.admin(`/admin/api/webshops/${other.id}/reviews/export?format=csv`);
      expect(elsewhere.status).toBe(200);
      await elsewhere.arrayBuffer();
    } finally {
      await slot!.release();
    }
    const after = await t.admin(`/admin/api/webshops/${shop.id}/reviews/export?format=csv`);
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });

  it('a client that goes away mid-file stops the export: the slot is free again and the trail says incomplete', async () => {
    const big = await t.createShop({ name: 'Big Shop' });
    const long = 'A long comment that fills the socket buffers quickly. '.repeat(40);
    await insertReviews(
      Array.from({ length: 3000 }, (_, i) => storedReview({ id: 20_000 + i, shopId: big.id, comment: long })),
    );
    await new Promise<void>((done, fail) => {
      const req = request(`${t.url}/admin/api/webshops/${big.id}/reviews/export?format=csv`, {
        headers: { authorization: `Bearer ${'test-admin-token-0123456789abcdef'}` },
      });
      req.on('response', (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          // Read one chunk, then hang up without reading the rest.
          req.destroy();
          done();
        });
      });
      req.on('error', (err) => ((err as { code?: string }).code === 'ECONNRESET' ? done() : fail(err)));
      req.end();
    });
    const entry = await waitForAudit(big.id, 'reviews.exported', () => true);
    expect(entry.details.complete).toBe(false);
    expect(entry.details.records as number).toBeLessThan(3000);
    const again = await t.services.exportSlots.take(big.id);
    expect(again).not.toBeNull();
    await again!.release();
  });
});

type Entry = { action: string; actor: { kind: string; id?: string }; details: Record<string, unknown> };

/** The shop's newest audit entry of `action` matching `where`: the entry is written once the stream closes. */
async function waitForAudit(shopId: number, action: string, where: (e: Entry) => boolean): Promise<Entry> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { items } = await t.services.audit.page(shopId, 0, 50);
    const found = (items as Entry[]).find((e) => e.action === action && where(e));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${action} entry in the audit trail of shop ${shopId}`);
    await pause(100);
  }
}
