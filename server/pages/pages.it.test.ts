import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectId } from 'mongodb';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { inlineScript } from '../http/inline-script.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
let shop: Webshop;
/** The service's clock runs this far ahead of the real one (the link-expiry tests move it). */
let clockAheadMs = 0;
beforeAll(async () => {
  t = await startTestApp({}, { now: () => new Date(Date.now() + clockAheadMs) });
  shop = await t.createShop({
    name: 'Fiets & Co',
    url: 'https://fiets.example/',
    languages: [{ iso: 'nl', name: 'Nederlands', url: 'https://fiets.example/', all: false, main: true }],
  });
});
afterAll(() => t.close());

let tokenCounter = 0;
/** An invitation as the mailer leaves it once sent: with the review link's token. */
async function sentInvitation(products: { id: string; name: string }[] = [], language = 'nl') {
  const order = `P-${++tokenCounter}`;
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'jane@example.com',
      order,
      language,
      customer_name: 'Jane',
      order_data: JSON.stringify({ products }),
    }).toString(),
  });
  expect((await res.json()).status).toBe('success');
  const token = `tok${String(tokenCounter).padStart(4, '0')}abcdefghijklmnopqrstu`;
  await t.db
    .collection<Invitation>('invitations')
    .updateOne({ shopId: shop.id, order }, { $set: { token, sent: new Date(), status: 'sent' } });
  return { token, order };
}

const form = (path: string, fields: Record<string, string>) =>
  t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const reviewOf = (filter: Partial<Review>) => t.db.collection<Review>('reviews').findOne(filter) as Promise<Review>;

function expectPageHeaders(res: Response, secret = true) {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  // Scripts and styles only by hash: the review form's one script, the page's one style element.
  expect(res.headers.get('content-security-policy')).toMatch(
    /default-src 'none'; script-src 'sha256-[^' ]+'; style-src 'sha256-[^' ]+'/,
  );
  expect(res.headers.get('set-cookie')).toBeNull();
  if (secret) {
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  }
}

describe('/review/{token}', () => {
  it("shows the form in the invitation's language: star radio groups, labelled fields, the order's products", async () => {
    const { token } = await sentInvitation([{ id: 'p1', name: 'Bel <b>"Ding"</b>' }]);
    const res = await t.fetch(`/review/${token}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html><html lang="nl">/);
    expect(html).toContain('<title>Beoordeel Fiets &amp; Co | Service</title>');
    expect(html.match(/<input type="radio"[^>]*name="rating"/g)).toHaveLength(5);
    expect(html.match(/type="radio"/g)).toHaveLength(5 + 4 * 6 + 6);
    expect(html).toContain('<label for="comment">');
    expect(html).toMatch(/<input type="text" id="name" name="name" value="Jane"/);
    expect(html).toContain('<option value="NL" selected>');
    expect(html).toContain('Oordeel over Bel &lt;b>&quot;Ding&quot;&lt;/b>');
    expect(html).not.toContain('<b>"Ding"</b>');
  });

  it('refuses a form without an overall rating with 400, naming the problem and keeping the answers', async () => {
    const { token } = await sentInvitation();
    const res = await form(`/review/${token}`, { name: 'Jane', comment: 'Prima <script>x</script>' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('href="#rating-1"');
    expect(html).toContain('Prima &lt;script>x&lt;/script></textarea>');
    expect(await t.db.collection<Invitation>('invitations').findOne({ token })).toMatchObject({ used: null });
  });

  it('writes one verified review with product ratings, shows the edit link, and then the link is used (410)', async () => {
    const { token, order } = await sentInvitation([
      { id: 'sku-1', name: 'Fietsbel' },
      { id: 'sku-2', name: 'Slot' },
    ]);
    const res = await form(`/review/${token}`, {
      rating: '4',
      shippingtime: '5',
      customerservice: '0',
      comment: 'Goed\r\ngeleverd',
      name: ' Jane  D. ',
      country: 'BE',
      product_0_rating: '5',
      product_0_content: 'Luide bel',
      product_1_rating: '0',
      product_1_content: '',
    });
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain('Bedankt voor je review');
    const review = await reviewOf({ shopId: shop.id, order });
    expect(review).toMatchObject({
      source: 'invitation',
      verified: true,
      published: true,
      email: 'jane@example.com',
      name: 'Jane D.',
      rating: 4,
      ratings: { shippingtime: 5, customerservice: 0, pricequality: 0, aftersale: 0 },
      comment: 'Goed\ngeleverd',
      country: 'BE',
      language: 'nl',
    });
    expect(review.products.map((p) => ({ id: p.external_id, rating: p.rating, content: p.content }))).toEqual([
      { id: 'sku-1', rating: 5, content: 'Luide bel' },
      { id: 'sku-2', rating: null, content: '' },
    ]);
    expect(html).toContain(`href="/edit/${review.editToken}"`);

    const feed = await (await t.fetch(withAuth('/api/1.0/product_reviews.xml', shop))).text();
    expect(feed).toContain('Luide bel');
    expect(feed).toContain('Fietsbel');

    const again = await t.fetch(`/review/${token}`);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('Je hebt deze review al geschreven');
    const repost = await form(`/review/${token}`, { rating: '1', name: 'Eve' });
    expect(repost.status).toBe(410);
    expect(await t.db.collection('reviews').countDocuments({ shopId: shop.id, order })).toBe(1);
  });

  it.each([
    ['an unknown token', '/review/unknownunknownunknown'],
    ['a token of the wrong form', '/review/%3Cscript%3E'],
  ])("answers %s with a readable 404 page in the browser's language", async (_name, path) => {
    const res = await t.fetch(path, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(res.status).toBe(404);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Dieser Link funktioniert nicht');
  });

  it('ignores junk in the form (operators, arrays) rather than failing', async () => {
    const { token } = await sentInvitation();
    const res = await t.fetch(`/review/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'rating[$gt]=0&name[]=x&country=ZZ',
    });
    expect(res.status).toBe(400);
  });
});

describe('/edit/{token}', () => {
  async function publishedReview() {
    return t.services.reviews.create(shop.id, {
      name: 'Jane',
      email: 'jane@example.com',
      rating: 3,
      language: 'en',
      comment: 'Okay',
      source: 'popup',
      verified: true,
      editToken: `edit${++tokenCounter}abcdefghijklmnopqrstuvwx`,
    });
  }

  it('shows the review in its form and saves a change as a reviews.updated event', async () => {
    const review = await publishedReview();
    const page = await t.fetch(`/edit/${review.editToken}`);
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/id="rating-3" name="rating" value="3" checked/);
    expect(html).toContain('Okay</textarea>');

    const res = await form(`/edit/${review.editToken}`, {
      rating: '5',
      aftersale: '4',
      comment: 'Better than I thought',
      name: 'Jane D',
      country: '',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Your changes have been saved.');
    expect(await reviewOf({ id: review.id })).toMatchObject({
      rating: 5,
      comment: 'Better than I thought',
      name: 'Jane D',
      ratings: { aftersale: 4 },
    });
    const events = await queuedEvents(t.db, review.id);
    expect(events.map((e) => e.topic)).toEqual(['reviews.created', 'reviews.updated']);

    // Saving again without a change records nothing new.
    await form(`/edit/${review.editToken}`, {
      rating: '5',
      aftersale: '4',
      comment: 'Better than I thought',
      name: 'Jane D',
      country: '',
    });
    expect(await queuedEvents(t.db, review.id)).toHaveLength(2);
  });

  it('refuses an empty name with 400 and changes nothing', async () => {
    const review = await publishedReview();
    const res = await form(`/edit/${review.editToken}`, { rating: '1', name: '' });
    expect(res.status).toBe(400);
    expect(await reviewOf({ id: review.id })).toMatchObject({ rating: 3, name: 'Jane' });
  });

  it('answers an unknown edit link with a readable 404 page', async () => {
    const res = await t.fetch('/edit/nosuchtokennosuchtoken');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This link does not work');
  });
});

describe('/confirm/{token}', () => {
  async function waiting(source: 'popup' | 'form') {
    return t.services.reviews.create(shop.id, {
      name: 'Piet <img src=x onerror=alert(1)>',
      email: 'piet@example.com',
      rating: 4,
      language: 'nl',
      comment: 'Top',
      source,
      quarantine: true,
      verified: false,
      confirmToken: `conf${++tokenCounter}abcdefghijklmnopqrstuvwx`,
    });
  }

  it('shows a button on GET and changes nothing (mail scanners open links)', async () => {
    const review = await waiting('popup');
    for (let i = 0; i < 2; i++) {
      const res = await t.fetch(`/confirm/${review.confirmToken}`);
      expect(res.status).toBe(200);
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).toContain('<form method="post"><button type="submit">Bevestigen en plaatsen</button></form>');
      expect(html).toContain('Piet &lt;img src=x onerror=alert(1)>');
    }
    expect(await reviewOf({ id: review.id })).toMatchObject({ quarantine: true, published: false });
  });

  it('publishes a pop-up review on POST as e-mail confirmed (not verified: it proves the address, not the order), with an edit link due', async () => {
    const review = await waiting('popup');
    const res = await t.fetch(`/confirm/${review.confirmToken}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Je review is geplaatst');
    const after = await reviewOf({ id: review.id });
    expect(after).toMatchObject({
      quarantine: false,
      verified: false,
      emailConfirmed: true,
      published: true,
      confirmToken: null,
    });
    expect(after.editToken).toBeTruthy();
    expect(after.editMailDue).toBeInstanceOf(Date);

    const again = await t.fetch(`/confirm/${review.confirmToken}`, { method: 'POST' });
    expect(again.status).toBe(404);
    // The link is gone with its review's token, so the page speaks the browser's language.
    expect(await again.text()).toContain('This confirmation link does not work');
  });

  it('publishes a form review (serviceAddReview) but leaves it unverified', async () => {
    const review = await waiting('form');
    expect((await t.fetch(`/confirm/${review.confirmToken}`, { method: 'POST' })).status).toBe(200);
    expect(await reviewOf({ id: review.id })).toMatchObject({
      quarantine: false,
      verified: false,
      emailConfirmed: true,
      published: true,
      editToken: null,
    });
  });

  it('answers an unknown confirmation link with a readable 404 page', async () => {
    const res = await t.fetch('/confirm/nosuchtokennosuchtoken', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This confirmation link does not work');
  });
});

describe('/webshops/{id}', () => {
  let s: Webshop;
  beforeAll(async () => {
    s = await t.createShop({
      name: 'Evil </script><script>alert(1)</script>',
      url: 'https://evil.example/',
      approved_date: '2024-02-03',
    });
    for (let i = 0; i < 12; i++) {
      await t.services.reviews.create(s.id, {
        name: i === 11 ? '<script>alert("x")</script>' : `Klant ${i}`,
        email: `k${i}@example.com`,
        rating: i % 2 ? 5 : 4,
        language: 'en',
        comment: i === 11 ? 'Nice </p><script>alert(2)</script>' : `Review ${i}`,
        created: new Date(Date.UTC(2024, 0, 1 + i)),
        verified: i === 11,
        // One review through an invitation, the others through the public form (origins, issue 11).
        source: i === 11 ? 'invitation' : 'form',
        incentivised: i === 10,
      });
    }
    await t.services.reviews.create(s.id, {
      name: 'Hidden',
      email: 'h@example.com',
      rating: 1,
      language: 'en',
      quarantine: true,
    });
    const newest = await reviewOf({ shopId: s.id, name: '<script>alert("x")</script>' });
    await t.services.reviews.update(newest.id, {
      reply: { text: 'Thanks <b>!</b>', date: new Date(), notify: false, revision: 1, notified: null },
    });
  });

  it('shows score, count, badges, and the newest published reviews with replies, all text escaped', async () => {
    const res = await t.fetch(`/webshops/${s.id}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res, false);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('9 out of 10');
    expect(html).toContain('12 reviews');
    expect(html).toContain('Approved shop since February 3, 2024');
    expect(html).toContain('8% verified customers');
    expect(html).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script>');
    expect(html).toContain('Nice &lt;/p>&lt;script>alert(2)&lt;/script>');
    expect(html).toContain('Thanks &lt;b>!&lt;/b>');
    // Each review says how it was checked; the page links to the policy page that explains it.
    expect(html).toContain('Verified order<span class="sr"> (the order was proven)</span>');
    expect(html).toContain('E-mail confirmed<span class="sr"> (the address was confirmed, not a purchase)</span>');
    expect(html).toContain('>Incentivised<');
    expect(html).toContain(
      `href="${t.services.config.baseUrl}/webshops/${s.id}/policy?lang=en">How reviews are checked</a>`,
    );
    expect(html).not.toContain('Hidden');
    expect(html).not.toContain('@example.com');
    expect(html.match(/<article/g)).toHaveLength(10);
    // The JSON-LD and the page's own script (Helpful votes, the photo dialog: issue 20), nothing else.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<script type="application\/ld\+json">/g)).toHaveLength(1);
    expect(html).toContain(`<script>${inlineScript('review-form').source}</script>`);
    expect(html).toContain(`href="/webshops/${s.id}?page=2"`);
  });

  it('carries schema.org AggregateRating JSON-LD with explicit best and worst, and a name that cannot end the script', async () => {
    const html = await (await t.fetch(`/webshops/${s.id}`)).text();
    const match = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
    expect(match).not.toBeNull();
    const data = JSON.parse(match![1]!);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: 'Evil </script><script>alert(1)</script>',
      url: 'https://evil.example/',
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 9, bestRating: 10, worstRating: 1, ratingCount: 12 },
    });
    expect(match![1]).toContain('\\u003c/script\\u003e');
  });

  it('pages with ?page= and speaks the language asked for', async () => {
    const html = await (await t.fetch(`/webshops/${s.id}?page=2&lang=de`)).text();
    expect(html).toContain('<html lang="de">');
    expect(html.match(/<article/g)).toHaveLength(2);
    expect(html).toContain('Seite 2 von 2');
    expect(html).toContain(`href="/webshops/${s.id}?lang=de&amp;page=1"`);
    const beyond = await (await t.fetch(`/webshops/${s.id}?page=99`)).text();
    expect(beyond).toContain('Page 2 of 2');
  });

  it('names a review without a name "Anonymous" in its heading, as its own page does, never an empty heading', async () => {
    const shop = await t.createShop({ name: 'Nameless', url: 'https://nameless.example/' });
    await t.services.reviews.create(shop.id, {
      name: ' ',
      email: 'nameless@example.com',
      rating: 5,
      language: 'en',
      comment: 'Fine.',
      source: 'form',
    });
    const html = await (await t.fetch(`/webshops/${shop.id}?lang=en`)).text();
    expect(html).toMatch(/<h3 id="review-\d+">Anonymous<\/h3>/);
    expect(html).not.toMatch(/<h3 id="review-\d+">\s*<\/h3>/);
  });

  it('leaves out aggregateRating while the shop has no reviews', async () => {
    const empty = await t.createShop({ name: 'Leeg' });
    const html = await (await t.fetch(`/webshops/${empty.id}`)).text();
    expect(html).not.toContain('aggregateRating');
    expect(html).toContain('No reviews yet.');
  });

  it('answers an unknown shop with a readable 404 page, and leaves other /webshops paths alone', async () => {
    const res = await t.fetch('/webshops/987654');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('Shop not found');
    const other = await t.fetch('/webshops/fetch_domain.json');
    expect(other.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('link expiry', () => {
  const DAY_MS = 86_400_000;
  afterEach(() => {
    clockAheadMs = 0;
  });
  /** Sets the service's clock to `days` days after `from`. */
  const setClock = (from: Date, days: number) => {
    clockAheadMs = from.getTime() + days * DAY_MS - Date.now();
  };
  const stored = async (order: string) =>
    (await t.db.collection<Invitation & { _id: ObjectId }>('invitations').findOne({ shopId: shop.id, order }))!;

  /** An invitation sent `days` days after it was due, as the sender records it. */
  async function invitationSentAfter(days: number, language = 'nl') {
    const { token, order } = await sentInvitation([], language);
    const invitation = await stored(order);
    setClock(invitation.scheduled, days);
    const sent = t.services.now();
    await t.services.invitations.queue.finish({
      _id: invitation._id,
      status: 'sent',
      at: sent,
      messageId: '<x@example>',
      reason: null,
    });
    return { token, order, sent, unsubscribeToken: invitation.unsubscribeToken };
  }

  it('keeps a review link working for 180 days after the invitation was sent, then answers 410 with a page in its language', async () => {
    // Sent ten days after it was due: the days count from the sending.
    const { token, order, sent } = await invitationSentAfter(10, 'de');
    setClock(sent, 179);
    expect((await t.fetch(`/review/${token}`)).status).toBe(200);

    setClock(sent, 181);
    const res = await t.fetch(`/review/${token}`);
    expect(res.status).toBe(410);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Dieser Bewertungslink ist abgelaufen</h1>');
    expect(html).toContain('180 Tage');
    expect(html).toContain('Fiets &amp; Co');
    expect(html).not.toContain('<form');

    const post = await form(`/review/${token}`, { rating: '5', name: 'Jane' });
    expect(post.status).toBe(410);
    expect(await post.text()).toContain('Dieser Bewertungslink ist abgelaufen');
    expect(await t.db.collection('reviews').countDocuments({ shopId: shop.id, order })).toBe(0);
    expect(await stored(order)).toMatchObject({ used: null });
  });

  it('counts a review link without a record of sending from when its invitation was due', async () => {
    const { token, order } = await sentInvitation();
    const { scheduled } = await stored(order);
    setClock(scheduled, 179);
    expect((await t.fetch(`/review/${token}`)).status).toBe(200);
    setClock(scheduled, 181);
    const res = await t.fetch(`/review/${token}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('Deze reviewlink is verlopen');
  });

  it('keeps an edit link working for 90 days after the review, then answers 410 saying the review stays as it is', async () => {
    const { token, order } = await invitationSentAfter(0);
    expect((await form(`/review/${token}`, { rating: '4', name: 'Jane', comment: 'Goed' })).status).toBe(200);
    const review = await reviewOf({ shopId: shop.id, order });

    setClock(review.created, 89);
    expect((await t.fetch(`/edit/${review.editToken}`)).status).toBe(200);
    expect((await form(`/edit/${review.editToken}`, { rating: '5', name: 'Jane', comment: 'Heel goed' })).status).toBe(
      200,
    );

    setClock(review.created, 91);
    const res = await t.fetch(`/edit/${review.editToken}`);
    expect(res.status).toBe(410);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain('<html lang="nl">');
    expect(html).toContain('<h1>Deze link om je review te wijzigen is verlopen</h1>');
    expect(html).toContain('90 dagen');
    expect(html).toContain('Je review blijft zoals hij is.');
    // No form to change the review: the one form asks for a new link, e-mailed to the review's address.
    expect(html).not.toContain('name="rating"');
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html).toContain(`action="/edit/${review.editToken}/renew"`);
    const post = await form(`/edit/${review.editToken}`, { rating: '1', name: 'Eve', comment: 'Slecht' });
    expect(post.status).toBe(410);
    expect(await reviewOf({ id: review.id })).toMatchObject({
      rating: 5,
      name: 'Jane',
      comment: 'Heel goed',
      published: true,
    });
  });

  it("counts a pop-up review's edit link from its edit e-mail when that came later", async () => {
    const review = await t.services.reviews.create(shop.id, {
      name: 'Jane',
      email: 'jane@example.com',
      rating: 3,
      language: 'en',
      source: 'popup',
      verified: true,
      editToken: `late${++tokenCounter}abcdefghijklmnopqrstuvwx`,
    });
    const mailed = new Date(review.created.getTime() + 30 * DAY_MS);
    await t.db.collection<Review>('reviews').updateOne({ id: review.id }, { $set: { editMailSent: mailed } });
    setClock(mailed, 89);
    expect((await t.fetch(`/edit/${review.editToken}`)).status).toBe(200);
    setClock(mailed, 91);
    const res = await t.fetch(`/edit/${review.editToken}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('This link to change your review has expired');
  });

  it('keeps the unsubscribe link working after 400 days (it only ever stops mail)', async () => {
    const { token, sent, unsubscribeToken } = await invitationSentAfter(0);
    setClock(sent, 400);
    expect((await t.fetch(`/review/${token}`)).status).toBe(410);
    const page = await t.fetch(`/unsubscribe/${unsubscribeToken}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    const done = await t.fetch(`/unsubscribe/${unsubscribeToken}`, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await t.db.collection('suppressions').countDocuments({ shopId: shop.id })).toBe(1);
  });
});
