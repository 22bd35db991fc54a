import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { DAY_MS } from '../time.js';
import type { Invitation } from './store.js';
import type { InvitationOutcome } from './queue.js';
import type { ObjectId } from 'mongodb';

const PATH = '/api/1.0/invitations.json';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    languages: [
      { iso: 'en', name: 'English', url: 'https://shop.example/en', all: false, main: false },
      { iso: 'de', name: 'Deutsch', url: 'https://shop.example/de', all: false, main: true },
    ],
  });
});
afterAll(() => t.close());

type Body = Record<string, string>;

/** Add invitation with a urlencoded body (the way most plugins call it). */
async function invite(body: Body, s: Pick<Webshop, 'id' | 'code'> = shop, query: Body = {}) {
  const res = await t.fetch(withAuth(PATH, s, query), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, body: await res.json() };
}

async function inviteMultipart(body: Body, s: Pick<Webshop, 'id' | 'code'> = shop) {
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) form.append(k, v);
  const res = await t.fetch(withAuth(PATH, s), { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

const stored = (filter: Partial<Invitation>) =>
  t.db
    .collection<Invitation>('invitations')
    .find({ shopId: shop.id, ...filter }, { projection: { _id: 0 } })
    .toArray();

const QUEUED = { status: 'success', message: 'Invitation successfully added to queue!' };
const ALREADY = { status: 'success', message: 'Invitation already sent for this order.' };

describe('POST /api/1.0/invitations.json', () => {
  it('queues an invitation from a urlencoded body and stores only what sending needs', async () => {
    const res = await invite({
      email: 'jane@example.com',
      order: 'A-1',
      delay: '3',
      language: 'nl',
      customer_name: 'Jane Doe',
      phone_numbers: '0612345678',
      order_total: '42.500000',
      client: 'woocommerce',
      platform_version: 'wp-6.5-wc-8.9',
      plugin_version: '3.1.0',
      noremail: '1',
    });
    expect(res).toEqual({ status: 200, body: QUEUED });
    const [doc] = await stored({ order: 'A-1' });
    expect(doc).toEqual({
      shopId: shop.id,
      email: 'jane@example.com',
      order: 'A-1',
      dedupe: 'jane@example.com\nA-1',
      language: 'nl',
      delay: 3,
      customer_name: 'Jane Doe',
      products: [],
      client: 'woocommerce',
      platform_version: 'wp-6.5-wc-8.9',
      plugin_version: '3.1.0',
      created: expect.any(Date),
      scheduled: expect.any(Date),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      used: null,
      unsubscribeToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      // Not sent: incentivised=1 only (issue 11), which labels the review written through the link.
      incentivised: false,
    });
    expect(doc!.scheduled.getTime() - doc!.created.getTime()).toBe(3 * DAY_MS);
  });

  it('accepts multipart bodies with PHP bracket arrays and order_data', async () => {
    const res = await inviteMultipart({
      email: 'multi@example.com',
      order: 'M-1',
      'phone_numbers[0]': '0612345678',
      'phone_numbers[1]': '0201234567',
      order_data: JSON.stringify({ products: [{ id: 1, name: 'Lamp' }] }),
    });
    expect(res).toEqual({ status: 200, body: QUEUED });
    const [doc] = await stored({ order: 'M-1' });
    expect(doc!.products).toEqual([
      { external_id: '1', name: 'Lamp', url: '', image_url: '', sku: '', gtin: '', mpn: '', brand: '' },
    ]);
    expect(doc).not.toHaveProperty('phone_numbers');
  });

  it('reads fields from the query too, with the body winning', async () => {
    const res = await invite({ order: 'Q-1' }, shop, { email: 'query@example.com', order: 'ignored' });
    expect(res.body).toEqual(QUEUED);
    expect(await stored({ email: 'query@example.com' })).toMatchObject([{ order: 'Q-1' }]);
  });

  it.each([
    ['no email', {}],
    ['an empty email', { email: '' }],
    ['a blank email', { email: '   ' }],
  ])('answers the missing-variables message for %s', async (_name, body) => {
    expect(await invite(body as Body)).toEqual({
      status: 200,
      body: { status: 'error', message: 'Not all obligated variables are set.' },
    });
  });

  it.each(['jane', 'jane@example', 'jane doe@example.com', 'a@b@example.com'])(
    'explains an invalid address (%s)',
    async (email) => {
      const res = await invite({ email, order: 'bad' });
      expect(res.body).toEqual({ status: 'error', message: 'The parameter email must be a valid e-mail address.' });
    },
  );

  it('normalises the address: trimmed, domain in lower case', async () => {
    await invite({ email: '  Mixed.Case@Example.COM ', order: 'N-1' });
    expect(await stored({ order: 'N-1' })).toMatchObject([{ email: 'Mixed.Case@example.com' }]);
    // The same customer written differently is the same invitation.
    expect((await invite({ email: 'Mixed.Case@example.com', order: 'N-1' })).body).toEqual(ALREADY);
  });

  it.each([
    ['missing credentials', {}, 'Not all obligated variables are set.'],
    ['a wrong code', { id: '1', code: 'f'.repeat(32) }, 'Incorrect authentication credentials.'],
  ])('answers %s with an HTTP 200 error', async (_name, query, message) => {
    const res = await t.fetch(`${PATH}?${new URLSearchParams(query)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=jane%40example.com',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'error', message });
  });

  it('does not let operators in the query or body reach the database', async () => {
    const injected = await t.fetch(`${PATH}?id[$ne]=1&code=${shop.code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=inject%40example.com',
    });
    expect((await injected.json()).message).toBe('Not all obligated variables are set.');
    const inBody = await t.fetch(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id[$ne]=1&code=${shop.code}&email=inject%40example.com`,
    });
    expect((await inBody.json()).message).toBe('Incorrect authentication credentials.');
    expect((await invite({ 'email[$ne]': 'x' })).body).toEqual({
      status: 'error',
      message: 'The parameter email must be a single text value.',
    });
    expect((await invite({ email: 'inject@example.com', 'order[$gt]': '' })).body).toEqual({
      status: 'error',
      message: 'The parameter order must be a single text value.',
    });
    expect(await stored({ email: 'inject@example.com' })).toEqual([]);
  });

  it.each([
    ['nl', 'nl'],
    ['nld', 'nl'],
    ['nl_nl', 'nl'],
    ['nl-NL', 'nl'],
    ['en_gb', 'en'],
    ['de-DE', 'de'],
    ['be', 'nl'],
    ['FR', 'fr'],
    ['cus', 'de'],
    ['', 'de'],
    ['klingon', 'de'],
  ])('maps language %j to %s (the shop default is de)', async (language, expected) => {
    const order = `L-${language || 'empty'}`;
    expect((await invite({ email: 'lang@example.com', order, language })).body).toEqual(QUEUED);
    expect(await stored({ order })).toMatchObject([{ language: expected }]);
  });

  it('uses the shop default when language is a bracket array', async () => {
    expect((await invite({ email: 'lang@example.com', order: 'L-array', 'language[0]': 'nl' })).body).toEqual(QUEUED);
    expect(await stored({ order: 'L-array' })).toMatchObject([{ language: 'de' }]);
  });

  it('keeps leading zeros: 000000123 and 123 are different orders', async () => {
    expect((await invite({ email: 'zeros@example.com', order: '000000123' })).body).toEqual(QUEUED);
    expect((await invite({ email: 'zeros@example.com', order: '123' })).body).toEqual(QUEUED);
    expect((await invite({ email: 'zeros@example.com', order: '000000123' })).body).toEqual(ALREADY);
    const orders = (await stored({ email: 'zeros@example.com' })).map((i) => i.order).sort();
    expect(orders).toEqual(['000000123', '123']);
  });

  it.each([
    ['', 0],
    ['0', 0],
    [' 7 ', 7],
    ['400', 365],
    ['-2', 0],
  ])('reads delay %j as %i days', async (delay, days) => {
    const order = `D-${delay.trim() || 'empty'}`;
    expect((await invite({ email: 'delay@example.com', order, delay })).body).toEqual(QUEUED);
    const [doc] = await stored({ order });
    expect(doc!.delay).toBe(days);
    expect(doc!.scheduled.getTime() - doc!.created.getTime()).toBe(days * DAY_MS);
  });

  it.each(['abc', '1.5', '3 days'])('names the delay when it is not an integer (%j)', async (delay) => {
    expect((await invite({ email: 'delay@example.com', order: 'D-bad', delay })).body).toEqual({
      status: 'error',
      message: 'The parameter delay must be an integer from 0 to 365.',
    });
  });

  it('answers a repeat of the same e-mail and order with the already-sent message', async () => {
    expect((await invite({ email: 'repeat@example.com', order: 'R-1' })).body).toEqual(QUEUED);
    expect((await invite({ email: 'repeat@example.com', order: 'R-1', delay: '5' })).body).toEqual(ALREADY);
    // Another address for the same order is another invitation.
    expect((await invite({ email: 'other@example.com', order: 'R-1' })).body).toEqual(QUEUED);
    expect(await stored({ order: 'R-1' })).toHaveLength(2);
  });

  it('queues every invitation without an order number (there is nothing to dedupe on)', async () => {
    expect((await invite({ email: 'noorder@example.com' })).body).toEqual(QUEUED);
    expect((await invite({ email: 'noorder@example.com', order: '' })).body).toEqual(QUEUED);
    expect(await stored({ email: 'noorder@example.com' })).toMatchObject([{ order: '' }, { order: '' }]);
  });

  it('stores exactly one invitation when 20 identical requests arrive at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => invite({ email: 'burst@example.com', order: 'B-1', customer_name: 'Burst' })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(results.every((r) => r.body.status === 'success')).toBe(true);
    expect(results.filter((r) => r.body.message === QUEUED.message)).toHaveLength(1);
    expect(results.filter((r) => r.body.message === ALREADY.message)).toHaveLength(19);
    expect(await stored({ email: 'burst@example.com' })).toHaveLength(1);
  });

  describe('max_invitations_per_email', () => {
    const LIMIT = {
      status: 'success',
      message: 'Invitation not queued: the maximum number of invitations for this e-mail address has been reached.',
    };

    it('queues at most N invitations per address, read from the query or the body', async () => {
      expect(
        (await invite({ email: 'max@example.com', order: 'X-1' }, shop, { max_invitations_per_email: '2' })).body,
      ).toEqual(QUEUED);
      expect((await invite({ email: 'max@example.com', order: 'X-2', max_invitations_per_email: '2' })).body).toEqual(
        QUEUED,
      );
      expect(
        (await invite({ email: 'max@example.com', order: 'X-3' }, shop, { max_invitations_per_email: '2' })).body,
      ).toEqual(LIMIT);
      // A retry of a queued order is still a repeat, not a refusal.
      expect((await invite({ email: 'max@example.com', order: 'X-1', max_invitations_per_email: '2' })).body).toEqual(
        ALREADY,
      );
      expect(await stored({ email: 'max@example.com' })).toHaveLength(2);
      // Other addresses and shops are not affected.
      expect((await invite({ email: 'max2@example.com', order: 'X-3', max_invitations_per_email: '1' })).body).toEqual(
        QUEUED,
      );
      const other = await t.createShop();
      expect(
        (await invite({ email: 'max@example.com', order: 'X-3', max_invitations_per_email: '1' }, other)).body,
      ).toEqual(QUEUED);
    });

    it('holds under concurrency: of 10 simultaneous calls for different orders of one address, 3 queue when the limit is 3', async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          invite({ email: 'race@example.com', order: `RACE-${i}`, max_invitations_per_email: '3' }),
        ),
      );
      expect(answers.filter((a) => a.body.message === QUEUED.message)).toHaveLength(3);
      expect(answers.filter((a) => a.body.message === LIMIT.message)).toHaveLength(7);
      expect(await stored({ email: 'race@example.com' })).toHaveLength(3);
      // A concurrent repeat of one order takes one place, not two.
      const repeats = await Promise.all(
        Array.from({ length: 5 }, () =>
          invite({ email: 'race2@example.com', order: 'SAME', max_invitations_per_email: '2' }),
        ),
      );
      expect(repeats.filter((a) => a.body.message === QUEUED.message)).toHaveLength(1);
      expect(
        (await invite({ email: 'race2@example.com', order: 'OTHER', max_invitations_per_email: '2' })).body,
      ).toEqual(QUEUED);
    });

    it('treats 0 and empty as no limit, and names a non-number', async () => {
      for (const [order, max] of [
        ['Z-1', '0'],
        ['Z-2', '0'],
        ['Z-3', ''],
      ] as const) {
        expect((await invite({ email: 'nolimit@example.com', order, max_invitations_per_email: max })).body).toEqual(
          QUEUED,
        );
      }
      expect(
        (await invite({ email: 'nolimit@example.com', order: 'Z-4', max_invitations_per_email: 'one' })).body,
      ).toEqual({
        status: 'error',
        message: 'The parameter max_invitations_per_email must be an integer from 0 to 1000000.',
      });
    });
  });

  describe('order_data', () => {
    it('keeps usable products in the shapes plugins send, and drops customer data', async () => {
      const orderData = {
        order: { id: 55, total: '10.00' },
        customer: { email: 'od@example.com', firstname: 'Jane', phone: '0612345678' },
        invoice_address: { street: 'Main street 1' },
        delivery_address: { street: 'Main street 1' },
        products: [
          {
            product_id: 12,
            name: 'Lamp',
            url: 'https://shop.example/lamp',
            sku: 'L-12',
            reviews_allowed: true,
            sync_url: 'x',
          },
          {
            id: '3f1c2a9e-7b1d-4c2e-9a57-0c1d2e3f4a5b',
            name: 'Chair',
            gtin: '8712345678906',
            mpn: 'CH-1',
            brand: 'Acme',
            image_urls: ['https://cdn.example/c.jpg'],
          },
          { id: 13 },
          { name: 'Nameless id' },
          [1, 2],
          null,
        ],
      };
      const res = await invite({ email: 'od@example.com', order: 'OD-1', order_data: JSON.stringify(orderData) });
      expect(res.body).toEqual(QUEUED);
      const [doc] = await stored({ order: 'OD-1' });
      expect(doc!.products).toEqual([
        {
          external_id: '12',
          name: 'Lamp',
          url: 'https://shop.example/lamp',
          image_url: '',
          sku: 'L-12',
          gtin: '',
          mpn: '',
          brand: '',
        },
        {
          external_id: '3f1c2a9e-7b1d-4c2e-9a57-0c1d2e3f4a5b',
          name: 'Chair',
          url: '',
          image_url: 'https://cdn.example/c.jpg',
          sku: '',
          gtin: '8712345678906',
          mpn: 'CH-1',
          brand: 'Acme',
        },
      ]);
      expect(JSON.stringify(doc)).not.toContain('Main street');
      expect(JSON.stringify(doc)).not.toContain('0612345678');
    });

    it.each(['{not json', '', '[]', 'null', '{"products":{"a":1}}'])(
      'queues the invitation without products when order_data is %j',
      async (orderData) => {
        const order = `ODX-${orderData}`;
        expect((await invite({ email: 'od@example.com', order, order_data: orderData })).body).toEqual(QUEUED);
        expect(await stored({ order })).toMatchObject([{ products: [] }]);
      },
    );

    it('accepts a 1 MB order_data of dense JSON (more than twice that URL-encoded)', async () => {
      const extras = Array.from({ length: (1024 * 1024) / 16 }, (_, i) => ({ k: 'v', n: i % 10 }));
      const orderData = JSON.stringify({ extras, products: [{ id: 1, name: 'Big' }] });
      expect(orderData.length).toBeGreaterThan(1024 * 1024);
      const body = new URLSearchParams({ email: 'big@example.com', order: 'BIG-1', order_data: orderData }).toString();
      expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
      const res = await t.fetch(withAuth(PATH, shop), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(await res.json()).toEqual(QUEUED);
      expect(await stored({ order: 'BIG-1' })).toMatchObject([{ products: [{ name: 'Big' }] }]);
    });

    it('refuses a body over 4 MB with 413 and the JSON envelope', async () => {
      const body = `email=huge%40example.com&order=HUGE&order_data=${'x'.repeat(4 * 1024 * 1024 + 1)}`;
      const res = await t.fetch(withAuth(PATH, shop), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ status: 'error', message: expect.stringContaining('too large') });
      expect(await stored({ order: 'HUGE' })).toEqual([]);
    });

    it('refuses a multipart body over 4 MB with 413', async () => {
      const form = new FormData();
      form.append('email', 'huge@example.com');
      form.append('order', 'HUGE-M');
      form.append('order_data', 'x'.repeat(4 * 1024 * 1024 + 1));
      const res = await t.fetch(withAuth(PATH, shop), { method: 'POST', body: form });
      expect(res.status).toBe(413);
      expect((await res.json()).status).toBe('error');
    });
  });
});

describe('GET /api/1.0/invitations.json', () => {
  let listShop: Webshop;
  beforeAll(async () => {
    listShop = await t.createShop();
    // Sequential, so creation times (and therefore "newest first") are well defined.
    for (let i = 1; i <= 23; i++) {
      const res = await invite(
        { email: `list${i}@example.com`, order: String(i).padStart(4, '0'), delay: String(i % 3) },
        listShop,
      );
      expect(res.body).toEqual(QUEUED);
    }
  });

  async function list(query: Body = {}) {
    const res = await t.fetch(withAuth(PATH, listShop, query));
    expect(res.status).toBe(200);
    return res.json();
  }

  it('lists newest first with the spec fields, `sent: false` while not sent, and the total', async () => {
    const body = await list({ order: '2' });
    expect(body).toEqual({
      status: 'success',
      message: 'Invitations successfully retrieved!',
      invitations: [
        {
          email: 'list23@example.com',
          order: '0023',
          delay: 2,
          datetimes: {
            created: expect.stringMatching(TIMESTAMP),
            scheduled: expect.stringMatching(TIMESTAMP),
            sent: false,
          },
        },
        {
          email: 'list22@example.com',
          order: '0022',
          delay: 1,
          datetimes: {
            created: expect.stringMatching(TIMESTAMP),
            scheduled: expect.stringMatching(TIMESTAMP),
            sent: false,
          },
        },
      ],
      total: 23,
    });
  });

  it('returns 10 by default', async () => {
    expect((await list()).invitations).toHaveLength(10);
  });

  it('pages with offset and limit until offset >= total, seeing every invitation once', async () => {
    const seen: string[] = [];
    let offset = 0;
    let total = Infinity;
    while (offset < total) {
      const body = await list({ offset: String(offset), limit: '10' });
      total = body.total;
      seen.push(...body.invitations.map((i: { order: string }) => i.order));
      offset += 10;
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect(seen[0]).toBe('0023');
    expect(seen[22]).toBe('0001');
  });

  it('prefers `order` over `limit` and clamps into 1–100', async () => {
    expect((await list({ order: '3', limit: '5' })).invitations).toHaveLength(3);
    expect((await list({ order: '0' })).invitations).toHaveLength(1);
    expect((await list({ order: '500' })).invitations).toHaveLength(23);
    expect((await list({ offset: '100' })).invitations).toEqual([]);
  });

  it('answers bad paging values with an error, an empty list and total 0', async () => {
    expect(await list({ order: 'ten' })).toEqual({
      status: 'error',
      message: 'The parameter order must be an integer from 1 to 100.',
      invitations: [],
      total: 0,
    });
    expect((await list({ offset: '-' })).message).toBe('The parameter offset must be an integer from 0 to 1000000000.');
  });

  it('shows the sent time once the scheduler has sent an invitation', async () => {
    const sent = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    // What the sender records (server/invitations/send.ts) once the SMTP server accepted the e-mail.
    const invitation = await t.db
      .collection<Invitation & { _id: ObjectId }>('invitations')
      .findOne({ shopId: listShop.id, order: '0023' });
    await t.db
      .collection<InvitationOutcome>('invitation_outcomes')
      .insertOne({ _id: invitation!._id, status: 'sent', at: sent, messageId: '<invitation.x@test>', reason: null });
    expect((await list({ order: '1' })).invitations[0].datetimes.sent).toBe('2025-01-02 03:04:05');
  });

  it('answers wrong credentials with an empty list', async () => {
    const res = await t.fetch(withAuth(PATH, { id: listShop.id, code: 'wrong' }));
    expect(await res.json()).toEqual({
      status: 'error',
      message: 'Incorrect authentication credentials.',
      invitations: [],
      total: 0,
    });
  });
});
