// Bulk imports through the operator API, against the real database: the worker's job is run by the test
// (drainImports), as the scheduler would once the import is queued.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { signedInAgent } from '../accounts/test-session.js';
import { drainImports, ImportUpload, startImport } from './service.js';

let t: TestApp;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function upload(shop: Webshop, bytes: Uint8Array, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
}

/** Uploads, runs the worker's job, and answers the import as the operator API shows it once done. */
async function imported(shop: Webshop, file: string, fields: Record<string, string> = {}) {
  const res = await upload(shop, fixture(file), file, fields);
  expect(res.status).toBe(202);
  const { id, status } = await res.json();
  expect(status).toBe('running');
  await drainImports(t.services, 'test-worker');
  return status200(shop, id);
}

async function status200(shop: Webshop, id: string) {
  const res = await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

const summary = async (shop: Webshop) =>
  (await (await t.fetch(withAuth('/api/1.0/ratings_summary.json', shop))).json()).data;
const ratings = async (shop: Webshop) =>
  (await (await t.fetch(withAuth('/api/1.0/ratings.json', shop))).json()).ratings;
const reviewsOf = (shop: Webshop) => t.db.collection<Review>('reviews').find({ shopId: shop.id }).toArray();
const productReviewsOf = (shop: Webshop) =>
  t.db.collection<{ status: string; email: string }>('imported_product_reviews').find({ shopId: shop.id }).toArray();

describe('POST /admin/api/webshops/{id}/imports', () => {
  it('imports a Yotpo file: store reviews count at once, product reviews and held ones do not; problems by line', async () => {
    const shop = await t.createShop();
    // Warm the caches first: the import must show at once, not after their TTL.
    expect((await summary(shop)).amount).toBe(0);
    const policy = async () =>
      (await (await t.fetch(`/webshops/${shop.id}/policy?lang=en`)).text()).replace(/\s+/g, ' ');
    expect(await policy()).toMatch(/Imported<\/span> <span>\(0 published\)/);
    const done = await imported(shop, 'yotpo.csv');
    expect(done).toMatchObject({
      status: 'done',
      imported_from: 'Yotpo',
      read: 4,
      imported: 3,
      duplicates: 0,
      held: 1,
      store_reviews: 2,
      product_reviews: 1,
      problems: [{ line: 5, reason: 'rating "six" is not a whole number from 1 to 5' }],
    });
    expect(await summary(shop)).toMatchObject({ amount: 1, rating_average: 10 });
    // ratings.json lists the shop's quarantined reviews too (flagged), as for any review held back.
    const listed = await ratings(shop);
    expect(listed.map((r: { name: string; quarantine: boolean }) => [r.name, r.quarantine])).toEqual([
      ['Carl', true],
      ['Anna B.', false],
    ]);
    expect(listed[1]).toMatchObject({
      name: 'Anna B.',
      comment: 'Fast delivery.\nWould buy "again".',
      origin: 'imported',
      imported_from: 'Yotpo',
      original_date: '2024-03-05T10:20:30.000Z',
      date: '2024-03-05',
      reply: 'Thank you!',
      reply_date: '2024-03-06 09:00:00',
    });
    const stored = await reviewsOf(shop);
    expect(stored).toHaveLength(2);
    for (const r of stored) {
      // Never verified, no event for the webhooks, no e-mail due.
      expect(r).toMatchObject({ verified: false, source: 'import', origin: 'imported', pendingEvent: null });
      expect(r.editMailDue).toBeNull();
      expect(r.reply?.notify ?? false).toBe(false);
    }
    const held = stored.find((r) => r.quarantine)!;
    expect(held).toMatchObject({ published: false, source_status: 'Unpublished', name: 'Carl' });
    const anna = stored.find((r) => r.name === 'Anna B.')!;
    expect(anna).toMatchObject({
      title: 'Great shop',
      experience_date: new Date('2024-03-01T00:00:00Z'),
      source_order: 'A-1',
      order: '',
      source_verified: true,
    });
    expect(await productReviewsOf(shop)).toEqual([
      expect.objectContaining({
        status: 'published',
        rating: 4,
        incentivised: true,
        photo_urls: ['https://img.example/p1.jpg'],
        product: expect.objectContaining({ external_id: 'P-9', name: 'Blue mug', url: 'https://shop.example/mug' }),
      }),
    ]);
    // Nothing queued for the webhooks: no per-review events for a bulk import.
    expect(await t.db.collection('review_events').countDocuments({ shopId: shop.id })).toBe(0);
    // The policy page counts the imported review among its published ones at once.
    expect(await policy()).toMatch(/Imported<\/span> <span>\(1 published\)/);

    // The same file again adds nothing.
    const again = await imported(shop, 'yotpo.csv');
    expect(again).toMatchObject({ status: 'done', read: 4, imported: 0, duplicates: 3 });
    expect(await reviewsOf(shop)).toHaveLength(2);
  });

  it('keeps or removes held reviews all at once, with a ground', async () => {
    const shop = await t.createShop();
    const yotpo = await imported(shop, 'yotpo.csv');
    const keep = await t.admin(`/admin/api/webshops/${shop.id}/imports/${yotpo.id}/held`, {
      method: 'POST',
      json: { action: 'keep' },
    });
    // Applied by the worker: the answer is the import with the decision pending; once applied, how many it decided.
    expect(keep.status).toBe(202);
    expect(await keep.json()).toMatchObject({
      id: yotpo.id,
      held_decision: null,
      held_decision_pending: { action: 'keep', ground: null, reviews: 0 },
    });
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, yotpo.id)).toMatchObject({
      held_decision: { action: 'keep', ground: null, reviews: 1 },
      held_decision_pending: null,
    });
    expect((await summary(shop)).amount).toBe(2);

    const judge = await imported(shop, 'judgeme.csv');
    expect(judge).toMatchObject({ imported: 3, held: 1, store_reviews: 0, product_reviews: 3 });
    const noGround = await t.admin(`/admin/api/webshops/${shop.id}/imports/${judge.id}/held`, {
      method: 'POST',
      json: { action: 'remove' },
    });
    expect(noGround.status).toBe(422);
    const remove = await t.admin(`/admin/api/webshops/${shop.id}/imports/${judge.id}/held`, {
      method: 'POST',
      json: { action: 'remove', ground: 'spam' },
    });
    expect(remove.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    expect((await status200(shop, judge.id)).held_decision).toMatchObject({
      action: 'remove',
      ground: 'spam',
      reviews: 1,
    });
    const products = await productReviewsOf(shop);
    expect(products.map((p) => p.status).sort()).toEqual(['published', 'published', 'published', 'removed']);
    // Product reviews never reached the shop's score.
    expect((await summary(shop)).amount).toBe(2);
    const audit = await t.db.collection('audit_log').find({ shopId: shop.id }).toArray();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['import.started', 'import.done', 'import.held_kept', 'import.held_removed']),
    );
  });

  it('applies "remove all" in the worker, in batches: a second decision meanwhile is refused; a crash resumes without doubles', async () => {
    const shop = await t.createShop();
    // 250 rows unpublished at the source (three batches of the worker's reads, 25 steps of its writes), one published.
    const rows = Array.from(
      { length: 250 },
      (_, i) =>
        `H${i},2024-03-05 10:20:30 UTC,store,Unpublished,2,Title ${i},Held text ${i},,,,,,,Writer ${i},w${i}@example.com,verified_buyer,nl,,,,,,,,`,
    );
    rows.push(
      'P1,2024-03-05 10:20:30 UTC,store,Published,5,Fine,Shown at the source,,,,,,,Pia,pia@example.com,verified_buyer,nl,,,,,,,,',
    );
    const header = fixture('yotpo.csv').toString('utf8').split('\n')[0]!;
    const res = await upload(shop, Buffer.from([header, ...rows].join('\n')), 'held.csv');
    const { id } = await res.json();
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({ status: 'done', imported: 251, held: 250 });

    const decide = (json: object) =>
      t.admin(`/admin/api/webshops/${shop.id}/imports/${id}/held`, { method: 'POST', json });
    const first = await decide({ action: 'remove', ground: 'spam' });
    expect(first.status).toBe(202);
    // While it is pending, another decision is refused, and the import shows the one pending.
    const second = await decide({ action: 'keep' });
    expect(second.status).toBe(409);
    expect((await second.json()).error).toMatchObject({ code: 'conflict' });
    expect(await status200(shop, id)).toMatchObject({
      held_decision: null,
      held_decision_pending: { action: 'remove', ground: 'spam', reviews: 0 },
    });

    // The worker dies in its second step, between the removals it recorded and the reviews' writes.
    const reviews = t.services.reviews;
    const decideImported = reviews.decideImported.bind(reviews);
    let batches = 0;
    reviews.decideImported = async (batch, decision) => {
      if (++batches === 2) throw new Error('the worker died');
      return decideImported(batch, decision);
    };
    try {
      await drainImports(t.services, 'test-worker');
    } finally {
      reviews.decideImported = decideImported;
    }
    expect(await status200(shop, id)).toMatchObject({
      held_decision: null,
      held_decision_pending: { action: 'remove', reviews: 10 },
    });
    expect((await decide({ action: 'keep' })).status).toBe(409);
    // Tried again a minute later (the work queue's retry): due now.
    await t.db.collection('import_work').updateMany({}, { $set: { due: new Date(Date.now() - 1000) } });
    await drainImports(t.services, 'test-worker');

    expect(await status200(shop, id)).toMatchObject({
      held_decision: { action: 'remove', ground: 'spam', reviews: 250 },
      held_decision_pending: null,
    });
    const all = await reviewsOf(shop);
    expect(all.filter((r) => r.deleted)).toHaveLength(250);
    expect(all.filter((r) => r.published).map((r) => r.name)).toEqual(['Pia']);
    // One removal per review on the policy page's count, one audit entry for the decision.
    const ids = all.filter((r) => r.deleted).map((r) => r.id);
    expect(await t.db.collection('review_removals').countDocuments({ _id: { $in: ids } } as never)).toBe(250);
    expect(await t.db.collection('review_removals').countDocuments({ shopId: shop.id })).toBe(250);
    const audit = await t.db.collection('audit_log').find({ shopId: shop.id, action: 'import.held_removed' }).toArray();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toEqual({ reviews: 250, ground: 'spam' });
    expect((await t.services.imports.queuedWork()).filter((w) => w.importId === id)).toEqual([]);

    // Done: a new decision may be taken again (nothing is held any more).
    const again = await decide({ action: 'keep' });
    expect(again.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    expect((await status200(shop, id)).held_decision).toMatchObject({ action: 'keep', reviews: 0 });
  });

  it('WooCommerce: the shop’s child rows are the replies; others reported', async () => {
    const shop = await t.createShop();
    const done = await imported(shop, 'woocommerce.csv', { reply_authors: 'owner@shop.example' });
    expect(done).toMatchObject({ read: 5, imported: 2, held: 1 });
    expect(done.problems).toEqual([
      { line: 4, reason: 'a reply to comment 11 by "Nora", not named as the shop (reply_authors): skipped' },
      { line: 6, reason: 'no rating' },
    ]);
    const mia = (await productReviewsOf(shop)).find((p) => p.email === 'mia@example.com');
    expect(mia).toMatchObject({ reply: { text: 'Thanks Mia!' } });
  });

  it('refuses a file it cannot read and stores nothing of it; asks for the order of ambiguous dates', async () => {
    const shop = await t.createShop();
    const zip = await upload(shop, Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), 'reviews.zip');
    expect(zip.status).toBe(422);
    expect(await zip.json()).toEqual({
      error: { code: 'file_refused', message: expect.stringMatching(/ZIP archive.*not a CSV file/) },
    });
    const ambiguous = await upload(shop, fixture('trustpilot.csv'), 'trustpilot.csv');
    expect(ambiguous.status).toBe(422);
    expect((await ambiguous.json()).error).toEqual({
      code: 'date_order_needed',
      message: expect.stringMatching(/date_order=dmy .*date_order=mdy/),
    });
    const bad = await upload(shop, fixture('trustpilot.csv'), 'trustpilot.csv', { date_order: 'ymd' });
    expect(bad.status).toBe(422);
    expect(await t.db.collection('import_chunks').countDocuments({})).toBe(0);
    expect((await (await t.admin(`/admin/api/webshops/${shop.id}/imports`)).json()).imports).toEqual([]);
    expect(await reviewsOf(shop)).toEqual([]);

    const done = await imported(shop, 'trustpilot.csv', { date_order: 'mdy' });
    expect(done).toMatchObject({ status: 'done', imported: 2, date_order: 'mdy' });
    expect((await ratings(shop)).map((r: { date: string }) => r.date)).toEqual(['2024-04-03', '2024-03-04']);
  });

  it('a dry run answers the preview and writes nothing', async () => {
    const shop = await t.createShop();
    const res = await upload(shop, fixture('shopify-product-reviews.csv'), 'spr.csv', { dry_run: '1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      dry_run: true,
      format: 'shopify_product_reviews',
      date_order: 'dmy',
      read: 3,
      to_import: 2,
      held: 1,
      distribution: { '5': 1, '2': 1 },
      problems: [{ line: 4, reason: 'date "31/02/2024 10:00" cannot be read' }],
      reviews: [
        expect.objectContaining({ line: 2, rating: 5, product: 'blue-mug', date: '2023-12-25 18:30:00' }),
        expect.anything(),
      ],
    });
    expect((await (await t.admin(`/admin/api/webshops/${shop.id}/imports`)).json()).imports).toEqual([]);
    expect(await productReviewsOf(shop)).toEqual([]);
  });

  it('waits for approval when started from the dashboard; undo removes it all within 30 days', async () => {
    const shop = await t.createShop();
    const up = new ImportUpload(t.services, shop.id);
    await up.begin();
    await up.add(fixture('trustpilot-utf16be.csv'));
    const started = await startImport(
      t.services,
      shop,
      up,
      { fileName: 'tp.csv', by: { kind: 'user', id: 'u1' } },
      { dryRun: false, replyAuthors: [] },
    );
    expect(started.dryRun).toBe(false);
    const id = started.dryRun ? '' : started.import._id;
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({
      status: 'awaiting_approval',
      imported: 0,
      preview: { to_import: 1, distribution: { '5': 1 } },
    });
    expect((await summary(shop)).amount).toBe(0);
    // Another shop's path does not reach it.
    const other = await t.createShop();
    expect((await t.admin(`/admin/api/webshops/${other.id}/imports/${id}`)).status).toBe(404);
    const wrongShop = await t.admin(`/admin/api/webshops/${other.id}/imports/${id}/approve`, { method: 'POST' });
    expect(wrongShop.status).toBe(404);
    const approve = await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}/approve`, { method: 'POST' });
    expect(approve.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({ status: 'done', imported: 1 });
    expect((await summary(shop)).amount).toBe(1);

    const undo = await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`, { method: 'DELETE' });
    expect(undo.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({ status: 'undone' });
    expect((await summary(shop)).amount).toBe(0);
    expect((await reviewsOf(shop)).every((r) => r.deleted && r.name === '' && r.email === '')).toBe(true);
    const twice = await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`, { method: 'DELETE' });
    expect(twice.status).toBe(409);
    const audit = await t.db.collection('audit_log').find({ shopId: shop.id }).toArray();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['import.approved', 'import.undone']));
  });

  it('from the dashboard: owner and manager import, the import waits for the operator; support may not', async () => {
    const shop = await t.createShop();
    const post = async (role: 'manager' | 'support', fields: Record<string, string> = {}) => {
      const { headers } = await signedInAgent(t, { email: `${role}@shop.example`, shopId: shop.id, role });
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(fixture('judgeme.csv'))]), 'judgeme.csv');
      return t.fetch(`/dashboard/api/shops/${shop.id}/imports`, { method: 'POST', headers, body: form });
    };
    expect((await post('support')).status).toBe(403);
    const preview = await post('manager', { dry_run: '1' });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({ to_import: 3, held: 1, product_reviews: 3 });
    const res = await post('manager');
    expect(res.status).toBe(202);
    const started = await res.json();
    expect(started).toMatchObject({ status: 'awaiting_approval', by: expect.stringMatching(/^user:\d+$/) });
    await drainImports(t.services, 'test-worker');
    expect(await productReviewsOf(shop)).toEqual([]);
    await t.admin(`/admin/api/webshops/${shop.id}/imports/${started.id}/approve`, { method: 'POST' });
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, started.id)).toMatchObject({ status: 'done', imported: 3 });
    // The dashboard's list names who started it, and carries what its progress bar needs.
    const { headers } = await signedInAgent(t, { email: 'manager@shop.example', shopId: shop.id, role: 'manager' });
    const listed = await (await t.fetch(`/dashboard/api/shops/${shop.id}/imports`, { headers })).json();
    expect(listed.imports[0]).toMatchObject({
      id: started.id,
      status: 'done',
      by_email: 'manager@shop.example',
      problem_count: 0,
      preview: { rows: 3, to_import: 3 },
    });
    const audit = await t.db.collection('audit_log').findOne({ shopId: shop.id, action: 'import.started' });
    expect(audit?.actor).toMatchObject({ kind: 'user' });
    // At most 5 wait for the operator at once: a shop cannot pile files up in the database.
    for (let i = 0; i < 5; i++) expect((await post('manager')).status).toBe(202);
    const sixth = await post('manager');
    expect(sixth.status).toBe(409);
    expect((await sixth.json()).error.message).toMatch(/already wait for approval/);
  });

  it('an interrupted run resumes by the reviews’ identity: nothing twice, counts as before', async () => {
    const shop = await t.createShop();
    const done = await imported(shop, 'trustpilot.csv', { date_order: 'mdy' });
    const before = await reviewsOf(shop);
    const first = Math.min(...before.map((r) => r.id));
    // As if the worker died mid-way through the second of two batches: its ids drawn, one review written, the file
    // still there; the run's status back to running.
    await t.db.collection('import_keys').deleteOne({ reviewId: first + 1 });
    await t.db
      .collection<{ _id: string }>('imports')
      .updateOne({ _id: done.id }, { $set: { status: 'running', pending: { from: first + 1, to: first + 1 } } });
    await t.services.imports.putChunk(done.id, 0, fixture('trustpilot.csv'));
    await t.services.imports.queueWork('run', done.id, shop.id);
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, done.id)).toMatchObject({ status: 'done', read: 2, imported: 2, duplicates: 0 });
    const after = (await reviewsOf(shop)).filter((r) => !r.deleted);
    expect(after.map((r) => r.name).sort()).toEqual(['René', 'Sam']);
    expect((await summary(shop)).amount).toBe(2);
  });

  it('one import of a shop at a time: while another worker holds the shop, the import waits, queued', async () => {
    const shop = await t.createShop();
    // Another process runs an import of the shop (or attaches one of its photos): it holds the shop's lock.
    expect(await t.services.imports.lockShop(shop.id, 'other-worker', 60_000)).toBe(true);
    const res = await upload(shop, fixture('trustpilot.csv'), 'tp.csv', { date_order: 'mdy' });
    const { id } = await res.json();
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({ status: 'running', imported: 0 });
    expect((await t.services.imports.queuedWork()).filter((w) => w.importId === id)).toMatchObject([{ work: 'run' }]);
    expect(await reviewsOf(shop)).toEqual([]);
    await t.services.imports.unlockShop(shop.id, 'other-worker');
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, id)).toMatchObject({ status: 'done', imported: 2 });
    expect((await t.services.imports.queuedWork()).filter((w) => w.importId === id)).toEqual([]);
  });

  it('a run that fails is tried again later, and does not hold up the other shops’ imports', async () => {
    const broken = await t.createShop();
    const res = await upload(broken, fixture('trustpilot.csv'), 'tp.csv', { date_order: 'mdy' });
    const { id } = await res.json();
    // Its file lost (not a refused file: the run cannot read it at all).
    await t.services.imports.dropFile(id, 1);
    const shop = await t.createShop();
    const fine = await (await upload(shop, fixture('trustpilot.csv'), 'tp.csv', { date_order: 'mdy' })).json();
    const before = Date.now();
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, fine.id)).toMatchObject({ status: 'done', imported: 2 });
    expect(await status200(broken, id)).toMatchObject({ status: 'running' });
    const [queued] = (await t.services.imports.queuedWork()).filter((w) => w.importId === id);
    expect(queued).toMatchObject({ work: 'run', attempts: 1, lastError: expect.stringMatching(/piece 0/) });
    expect(queued!.due.getTime()).toBeGreaterThan(before);
    // Not due again in the same run, nor in the next one a moment later.
    await drainImports(t.services, 'test-worker');
    expect((await t.services.imports.queuedWork()).filter((w) => w.importId === id)).toMatchObject([{ attempts: 1 }]);
    await t.services.imports.cancelWork('run', id);
  });

  it('a file of several batches: every row once, problems by their line, the same again adds nothing', async () => {
    const shop = await t.createShop();
    const header =
      'Review Id,Review Created (UTC),Review Username,Review User Email,Review Title,Review Content,Review Stars\n';
    const rows = Array.from({ length: 1234 }, (_, i) =>
      i === 700
        ? `r${i},2024-01-01T00:00:00Z,N${i},,T,C,9`
        : `r${i},2024-01-01T00:00:00Z,N${i},,T,C${i},${1 + (i % 5)}`,
    );
    const file = new TextEncoder().encode(header + rows.join('\n'));
    const send = async () => {
      const res = await upload(shop, file, 'big.csv');
      expect(res.status).toBe(202);
      const { id } = await res.json();
      await drainImports(t.services, 'test-worker');
      return status200(shop, id);
    };
    expect(await send()).toMatchObject({
      status: 'done',
      read: 1234,
      imported: 1233,
      problems: [{ line: 702, reason: 'rating "9" is not a whole number from 1 to 5' }],
    });
    expect(await reviewsOf(shop)).toHaveLength(1233);
    expect((await summary(shop)).amount).toBe(1233);
    expect(await send()).toMatchObject({ status: 'done', imported: 0, duplicates: 1233 });
    expect(await reviewsOf(shop)).toHaveLength(1233);
  });

  it('a run in the process that answers the API finishes while a request keeps writing (it lets requests go first, not forever)', async () => {
    const shop = await t.createShop();
    const header =
      'Review Id,Review Created (UTC),Review Username,Review User Email,Review Title,Review Content,Review Stars\n';
    const rows = Array.from({ length: 900 }, (_, i) => `w${i},2024-01-01T00:00:00Z,N${i},,T,C${i},${1 + (i % 5)}`);
    const res = await upload(shop, new TextEncoder().encode(header + rows.join('\n')), 'busy.csv');
    expect(res.status).toBe(202);
    const { id } = await res.json();
    // A request that writes and never ends (a slow client, a stuck write): the run's batches still go through.
    const end = t.services.activity.begin();
    try {
      await drainImports(t.services, 'test-worker');
    } finally {
      end();
    }
    expect(await status200(shop, id)).toMatchObject({ status: 'done', read: 900, imported: 900 });
    expect(await reviewsOf(shop)).toHaveLength(900);
  });

  it('an erasure finds the addresses of imported reviews, product reviews included', async () => {
    const shop = await t.createShop();
    await imported(shop, 'yotpo.csv');
    const res = await t.admin(
      `/admin/api/customers?email=${encodeURIComponent('Bram@example.com')}&webshop=${shop.id}`,
      { method: 'DELETE' },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).reviews_anonymised).toBe(1);
    const [bram] = await productReviewsOf(shop);
    expect(bram).toMatchObject({ email: '', name: '', text: '' });
  });

  it('a file of no known format: 422 with its columns, imported by the mapping, which is remembered per shop', async () => {
    const shop = await t.createShop();
    const file = new TextEncoder().encode(
      [
        'Stars;When;Words;Who;Mail;Item;Answer',
        '5;2024-02-01 10:00:00;Lovely shop;Ada;ada@example.com;;Thanks Ada',
        '4;2024-02-02 11:00:00;Good kettle;Bo;bo@example.com;KETTLE-1;',
        'six;2024-02-03 12:00:00;Unreadable;Cy;;;',
      ].join('\n'),
    );
    const needed = await upload(shop, file, 'custom.csv', { dry_run: '1' });
    expect(needed.status).toBe(422);
    expect((await needed.json()).error).toMatchObject({
      code: 'mapping_needed',
      columns: ['Stars', 'When', 'Words', 'Who', 'Mail', 'Item', 'Answer'],
    });
    // A mapping that is not JSON, lacks the rating or names a column the file lacks imports nothing.
    for (const [mapping, code] of [
      ['{', 'validation_failed'],
      ['{"date":"When"}', 'validation_failed'],
      ['{"rating":"Stars","date":"When","colour":"Words"}', 'validation_failed'],
      ['{"rating":"Score","date":"When"}', 'file_refused'],
    ] as const) {
      const res = await upload(shop, file, 'custom.csv', { mapping });
      expect(res.status, mapping).toBe(422);
      expect((await res.json()).error.code, mapping).toBe(code);
    }
    expect(await reviewsOf(shop)).toEqual([]);

    const mapping = {
      rating: 'Stars',
      date: 'When',
      text: 'Words',
      name: 'Who',
      email: 'Mail',
      product: 'Item',
      reply: 'Answer',
    };
    const res = await upload(shop, file, 'custom.csv', { mapping: JSON.stringify(mapping) });
    expect(res.status).toBe(202);
    const started = await res.json();
    expect(started).toMatchObject({ format: 'mapped', imported_from: 'another platform' });
    await drainImports(t.services, 'test-worker');
    expect(await status200(shop, started.id)).toMatchObject({
      status: 'done',
      imported: 2,
      store_reviews: 1,
      product_reviews: 1,
      problems: [{ line: 4, reason: expect.stringMatching(/rating "six"/) }],
    });
    const [ada] = await reviewsOf(shop);
    expect(ada).toMatchObject({ name: 'Ada', rating: 5, comment: 'Lovely shop', imported_from: 'another platform' });
    expect(ada!.reply?.text).toBe('Thanks Ada');
    const [bo] = await productReviewsOf(shop);
    expect(bo).toMatchObject({ email: 'bo@example.com', status: 'published' });

    // The next file with the same header is read by the shop's mapping without asking; another shop is asked.
    const next = await upload(shop, file, 'again.csv', { dry_run: '1' });
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ format: 'mapped', mapping, to_import: 0, duplicates: 2 });
    const other = await t.createShop();
    expect((await upload(other, file, 'custom.csv', { dry_run: '1' })).status).toBe(422);
  });
});
