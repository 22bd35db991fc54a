// The review policy page (issue 11): its numbers from fixtures, its language, its escaping, and the operator's texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { NewReview } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
const DAY = 86_400_000;

async function add(input: Partial<NewReview>) {
  return t.services.reviews.create(shop.id, {
    name: 'Klant',
    email: 'k@example.com',
    rating: 4,
    language: 'nl',
    ...input,
  });
}

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    name: 'Fiets <b>& Co</b>',
    languages: [{ iso: 'de', name: 'Deutsch', url: 'https://fiets.example/', all: false, main: true }],
  });
  // Fixtures: 3 invitation reviews (1 incentivised), 2 pop-up (1 verified), 1 import; a form review still waiting
  // and a deleted one do not count.
  await add({ source: 'invitation', verified: true });
  await add({ source: 'invitation', verified: true });
  await add({ source: 'invitation', verified: true, incentivised: true });
  await add({ source: 'popup', verified: true });
  await add({ source: 'popup', verified: false, emailConfirmed: true });
  await add({ source: 'import', imported_from: 'Kiyoh' });
  await add({ source: 'form', quarantine: true, confirmToken: 'x'.repeat(32) });
  const gone = await add({ source: 'invitation', verified: true });
  await t.services.reviews.softDelete(gone.id);
});
afterAll(() => t.close());

async function page(query = '', headers: Record<string, string> = {}) {
  const res = await t.fetch(`/webshops/${shop.id}/policy${query}`, { headers });
  return { res, html: await res.text() };
}

/** The page's text without tags, blanks collapsed. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const section = (html: string, id: string) =>
  text(html.slice(html.indexOf(`id="${id}"`), html.indexOf('</section>', html.indexOf(`id="${id}"`))));

describe('GET /webshops/{id}/policy', () => {
  it('is a server-rendered page without scripts, in the shop’s main language by default', async () => {
    const { res, html } = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'none'/);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(html).not.toMatch(/<script/);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('So werden Bewertungen geprüft');
  });

  it('lists the collection methods this shop uses and counts published reviews per origin', async () => {
    const { html } = await page('?lang=en');
    const collected = section(html, 'collected');
    expect(collected).toContain('By invitation');
    expect(collected).toContain('After checkout');
    expect(collected).toContain('Imported');
    // The only form review waits for confirmation: the form is not (yet) a method this shop's reviews came by.
    expect(collected).not.toContain('public form');
    const origins = section(html, 'origins');
    expect(origins).toMatch(/Verified order \(4 published\)/);
    expect(origins).toMatch(/E-mail confirmed \(1 published\)/);
    expect(origins).toMatch(/Imported \(1 published\)/);
    expect(origins).toMatch(/Incentivised \(1 published\)/);
    expect(section(html, 'incentives')).toContain('1 of 6 published reviews were written for an incentive');
  });

  it('says how the score is computed, with the real rule: published reviews, 1–5 doubled to 1–10, no period', async () => {
    const score = section((await page('?lang=en')).html, 'score');
    expect(score).toContain('Every published review counts, however old');
    expect(score).toContain('doubled, on a scale of 1 to 10');
    expect(score).toContain('left out of that average');
  });

  it('names the automatic checks that are on, and that a person decides (issue 21)', async () => {
    const signals = section((await page('?lang=en')).html, 'signals');
    expect(signals).toContain('Reviews are checked automatically for reviews by the shop’s own people');
    expect(signals).toContain('unusual bursts');
    expect(signals).toContain('never hides, holds or delays a review');
    expect(signals).toContain('a person decides');
    const off = await startTestApp({ SIGNALS: 'none' });
    try {
      const shop = await off.createShop({ name: 'Quiet' });
      const html = await (await off.fetch(`/webshops/${shop.id}/policy?lang=en`)).text();
      expect(section(html, 'signals')).toContain('No automatic checks are switched on.');
    } finally {
      await off.close();
    }
  });

  it('lists every ground, with the removals of the last 12 months per ground', async () => {
    const removals = t.db.collection<{ _id: number; shopId: number; ground: string; at: Date }>('review_removals');
    const now = Date.now();
    await removals.insertMany([
      { _id: 900001, shopId: shop.id, ground: 'spam', at: new Date(now - 10 * DAY) },
      { _id: 900002, shopId: shop.id, ground: 'spam', at: new Date(now - 300 * DAY) },
      { _id: 900003, shopId: shop.id, ground: 'offensive', at: new Date(now - 20 * DAY) },
      // Older than 12 months, and another shop's: not counted.
      { _id: 900004, shopId: shop.id, ground: 'spam', at: new Date(now - 400 * DAY) },
      { _id: 900005, shopId: shop.id + 1, ground: 'spam', at: new Date(now - DAY) },
    ]);
    const { html } = await page('?lang=en');
    const row = (ground: string) => text(new RegExp(`<tr data-ground="${ground}">(.*?)</tr>`).exec(html)![1]!).trim();
    for (const ground of ['not_experience', 'offensive', 'personal_data', 'spam', 'conflict_of_interest', 'other']) {
      expect(html).toContain(`data-ground="${ground}"`);
    }
    expect(row('spam')).toMatch(/2$/);
    expect(row('offensive')).toMatch(/1$/);
    expect(row('personal_data')).toMatch(/0$/);
    expect(text(html)).toMatch(/Total 3 /);
  });

  it('takes ?lang=, else Accept-Language, else the shop’s main language', async () => {
    expect((await page('?lang=nl')).html).toContain('<html lang="nl">');
    expect((await page('', { 'accept-language': 'nl-BE,nl;q=0.9,en;q=0.5' })).html).toContain(
      'Zo worden reviews gecontroleerd',
    );
    expect((await page('?lang=en', { 'accept-language': 'nl' })).html).toContain('How reviews are checked');
    expect((await page('', { 'accept-language': 'hr-HR,hr;q=0.9' })).html).toContain('<html lang="hr">');
    expect((await page('?lang=xx', { 'accept-language': 'xx' })).html).toContain('<html lang="de">');
  });

  it('is written in each of the seven languages, issue 21’s parts included (checks, per-star table, incentives)', async () => {
    // Each language's own words for the headings and for the parts issue 21 added: no English left in them.
    const expected: Record<string, string[]> = {
      fr: [
        'Comment les avis sont vérifiés',
        'Contrôles automatiques',
        'les afflux inhabituels',
        'Avis par étoile',
        '5 étoiles',
        'comme tout autre avis',
      ],
      es: [
        'Cómo se comprueban las reseñas',
        'Comprobaciones automáticas',
        'avalanchas inusuales',
        'Reseñas por estrellas',
        '5 estrellas',
        'como cualquier otra reseña',
      ],
      it: [
        'Come vengono verificate le recensioni',
        'Controlli automatici',
        'afflussi insoliti',
        'Recensioni per stelle',
        '5 stelle',
        'come qualsiasi altra recensione',
      ],
      hr: [
        'Kako se provjeravaju recenzije',
        'Automatske provjere',
        'neuobičajene navale',
        'Recenzije po zvjezdicama',
        '2 zvjezdice',
        '5 zvjezdica',
        'kao i svaka druga recenzija',
      ],
    };
    for (const [lang, words] of Object.entries(expected)) {
      const { res, html } = await page(`?lang=${lang}`);
      expect(res.status).toBe(200);
      expect(html).toContain(`<html lang="${lang}">`);
      for (const w of words) expect(html, `${lang}: ${w}`).toContain(w);
      for (const english of [
        'How reviews are checked',
        'Automatic checks',
        'Reviews per star',
        'unusual bursts',
        'like any other review',
      ])
        expect(html, `${lang}: ${english}`).not.toContain(english);
      // The operator's texts have defaults in the language too.
      expect((await t.admin(`/admin/api/policy-text/${lang}`)).status).toBe(200);
    }
  });

  it('escapes the shop’s name and links to the shop’s reviews, where each has its report link', async () => {
    const { html } = await page('?lang=en');
    expect(html).not.toContain('<b>& Co</b>');
    expect(html).toContain('Fiets &lt;b>&amp; Co&lt;/b>');
    expect(html).toContain(`href="${t.services.config.baseUrl}/webshops/${shop.id}?lang=en"`);
  });

  it('answers 404 with a page for an unknown shop', async () => {
    const res = await t.fetch('/webshops/987654321/policy');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Shop not found');
  });
});

describe('/admin/api/policy-text/{lang}', () => {
  it('shows the defaults, takes the operator’s text (shown escaped on the page), and resets', async () => {
    const read = async () => (await t.admin('/admin/api/policy-text/en')).json();
    expect(await read()).toMatchObject({
      lang: 'en',
      custom: false,
      checks: expect.stringContaining('Verified order'),
    });

    const mine = {
      checks: 'We check <em>everything</em>.',
      publication: 'All reviews are shown.\n\nReally all.',
      reporting: 'Write to us.',
    };
    const put = await t.admin('/admin/api/policy-text/en', { method: 'PUT', json: mine });
    expect(put.status).toBe(200);
    expect(await read()).toMatchObject({ custom: true, ...mine });
    const { html } = await page('?lang=en');
    expect(html).toContain('<p>We check &lt;em>everything&lt;/em>.</p>');
    expect(html).toContain('<p>All reviews are shown.</p><p>Really all.</p>');
    // Other languages keep their defaults.
    expect((await page('?lang=nl')).html).toContain('Elke review wordt gepubliceerd, ongeacht de score');

    expect((await t.admin('/admin/api/policy-text/en', { method: 'DELETE' })).status).toBe(204);
    expect(await read()).toMatchObject({ custom: false });
  });

  it('refuses a bad text with a 422 naming the field, an unknown language with 404, and no token with 401', async () => {
    const bad = await t.admin('/admin/api/policy-text/de', {
      method: 'PUT',
      json: { checks: 'x', publication: { $ne: 1 }, reporting: 'y' },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.message).toMatch(/^publication:/);
    const missing = await t.admin('/admin/api/policy-text/de', { method: 'PUT', json: { checks: 'x' } });
    expect(missing.status).toBe(422);
    expect((await t.admin('/admin/api/policy-text/xx')).status).toBe(404);
    expect((await t.fetch('/admin/api/policy-text/en')).status).toBe(401);
  });
});
