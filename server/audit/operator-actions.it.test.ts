// Every operator action that changes what the public sees or a credential is in the audit trail (issue 17): who,
// when, what, scores and flags before → after, texts only as "changed" with their lengths. The serialised entry
// never holds a review's text, a writer's name or address, the API code or a token. The shop's owners read the
// operator's entries on their shop in the dashboard's trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import { sha256Hex } from '../hash.js';
import type { Webshop } from '../webshops/store.js';
import type { AuditEntry } from './store.js';

let t: TestApp;
let shop: Webshop;
let started: Date;

const NAME = 'Annelies Brouwer';
const ADDRESS = 'annelies.brouwer@example.com';
const COMMENT = 'Mooie fiets, snel bezorgd door Annelies';
const NEW_COMMENT = 'Mooie fiets';
const NEW_NAME = 'A. Brouwer-de Wit';

beforeAll(async () => {
  t = await startTestApp({ BASE_URL: 'https://reviews.example' });
  shop = await t.createShop({ name: 'Fietsen Fabriek', reply_access: true });
  started = new Date();
});
afterAll(() => t.close());

/** An entry as GET /admin/api/audit answers it. */
interface AuditJson {
  at: string;
  webshop_id: number | null;
  actor: { kind: string; id?: string };
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/** The newest entry with this action (in this shop, or service-wide for `null`), as the operator API answers it. */
async function latest(action: string, shopId: number | null = shop.id): Promise<AuditJson> {
  const res = await t.admin(`/admin/api/audit?limit=500${shopId === null ? '' : `&webshop=${shopId}`}`);
  expect(res.status).toBe(200);
  const { entries } = (await res.json()) as { entries: AuditJson[] };
  const entry = entries.find((e) => e.action === action && e.webshop_id === shopId);
  expect(entry, `an entry ${action}`).toBeDefined();
  expect(new Date(entry!.at).getTime()).toBeGreaterThanOrEqual(started.getTime() - 1000);
  return entry!;
}

const actions = async (shopId: number | null = shop.id) =>
  (await t.services.audit.list({ limit: 500 })).filter((e: AuditEntry) => e.shopId === shopId).map((e) => e.action);

/** Nothing of the writer's words or person, whatever the case. */
function expectNoTraces(entry: unknown, traces: string[]) {
  const text = JSON.stringify(entry).toLowerCase();
  for (const trace of traces) expect(text).not.toContain(trace.toLowerCase());
}

async function importReview(json: Record<string, unknown>): Promise<number> {
  const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, { method: 'POST', json });
  expect(res.status).toBe(201);
  return (await res.json()).id as number;
}

describe('operator actions on reviews', () => {
  it('an import is audited with its score, not its name, address or text', async () => {
    const id = await importReview({ name: NAME, email: ADDRESS, rating: 2, comment: COMMENT });
    const entry = await latest('review.imported');
    expect(entry).toMatchObject({
      actor: { kind: 'operator' },
      target: `review:${id}`,
      details: { rating: 2, published: true },
    });
    expectNoTraces(entry, [NAME, ADDRESS, COMMENT, 'annelies', 'brouwer']);
  });

  it('PATCH records scores and flags before → after, the texts only as changed with their lengths', async () => {
    const id = await importReview({
      name: NAME,
      email: ADDRESS,
      rating: 2,
      comment: COMMENT,
      ratings: { shippingtime: 4 },
    });
    const res = await t.admin(`/admin/api/reviews/${id}`, {
      method: 'PATCH',
      json: {
        comment: NEW_COMMENT,
        name: NEW_NAME,
        rating: 4,
        ratings: { shippingtime: 2 },
        quarantine: true,
        is_spam: false,
        valid: false,
      },
    });
    expect(res.status).toBe(200);
    const entry = await latest('review.changed');
    expect(entry).toMatchObject({ actor: { kind: 'operator' }, target: `review:${id}`, webshop_id: shop.id });
    expect(entry.details).toEqual({
      rating: { from: 2, to: 4 },
      ratings: { shippingtime: { from: 4, to: 2 } },
      quarantine: { from: false, to: true },
      valid: { from: true, to: false },
      published: { from: true, to: false },
      comment: { changed: true, length_before: COMMENT.length, length_after: NEW_COMMENT.length },
      name: { changed: true, length_before: NAME.length, length_after: NEW_NAME.length },
    });
    expectNoTraces(entry, [NAME, NEW_NAME, ADDRESS, COMMENT, NEW_COMMENT, 'annelies', 'brouwer']);
  });

  it('DELETE records the score and that the review left the public', async () => {
    const id = await importReview({ name: NAME, email: ADDRESS, rating: 5, comment: COMMENT });
    expect((await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' })).status).toBe(204);
    const entry = await latest('review.deleted');
    expect(entry).toMatchObject({
      actor: { kind: 'operator' },
      target: `review:${id}`,
      details: { rating: 5, published: { from: true, to: false } },
    });
    expectNoTraces(entry, [NAME, ADDRESS, COMMENT, 'annelies', 'brouwer']);
    // Deleting again changes nothing and adds nothing.
    const before = (await actions()).length;
    expect((await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await actions()).length).toBe(before);
  });
});

describe('operator actions on shops', () => {
  it('creating a shop is audited in its trail', async () => {
    const res = await t.admin('/admin/api/webshops', {
      method: 'POST',
      json: { name: 'Nieuw', url: 'https://nieuw.example/', reply_access: true },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    const entry = await latest('webshop.created', created.id);
    expect(entry).toMatchObject({
      actor: { kind: 'operator' },
      details: { settings: ['name', 'reply_access', 'url'] },
    });
    expectNoTraces(entry, [created.code]);
  });

  it('PATCH records flags and numbers before → after, texts as changed with lengths', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}`, {
      method: 'PATCH',
      json: {
        name: 'Fietsen Fabriek Utrecht',
        reply_access: false,
        reminder_days: 3,
        require_signed_order_data: true,
        sidebar: { position: 'right' },
        address: { city: 'Utrecht' },
        hero_color: '#1a7f37',
      },
    });
    expect(res.status).toBe(200);
    const entry = await latest('webshop.settings_changed');
    expect(entry).toMatchObject({ actor: { kind: 'operator' }, target: null });
    expect(entry.details).toEqual({
      name: { changed: true, length_before: 'Fietsen Fabriek'.length, length_after: 'Fietsen Fabriek Utrecht'.length },
      reply_access: { from: true, to: false },
      reminder_days: { from: 7, to: 3 },
      require_signed_order_data: { from: false, to: true },
      sidebar: { position: { from: 'left', to: 'right' } },
      address: { city: { changed: true, length_before: 0, length_after: 'Utrecht'.length } },
      hero_color: { from: '', to: '#1a7f37' },
    });
    expectNoTraces(entry, ['Utrecht', shop.code]);
  });

  it('rotating the API code is audited, without the old or the new code', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/code`, { method: 'POST' });
    expect(res.status).toBe(200);
    const { code } = await res.json();
    const entry = await latest('integration.code_rotated');
    expect(entry).toMatchObject({ actor: { kind: 'operator' } });
    expectNoTraces(entry, [shop.code, code]);
  });

  it('the shop’s owners see the operator’s entries in the dashboard’s trail, as the operator', async () => {
    const { headers } = await signedInAgent(t, {
      email: 'owner@fietsen.example',
      shopId: shop.id,
      role: 'owner' as Role,
    });
    const res = await t.fetch(`/dashboard/api/shops/${shop.id}/audit?page_size=100`, { headers });
    expect(res.status).toBe(200);
    const items = (await res.json()).items as { actor: string; action: string }[];
    const byOperator = items.filter((e) => e.actor === 'operator').map((e) => e.action);
    for (const action of [
      'review.imported',
      'review.changed',
      'review.deleted',
      'webshop.settings_changed',
      'integration.code_rotated',
    ]) {
      expect(byOperator).toContain(action);
    }
  });
});

describe('operator actions on service-wide texts and credentials', () => {
  it('policy texts: changed with lengths, reset; never the text', async () => {
    const text = {
      checks: 'Wij controleren elke review.',
      publication: 'Alles wordt gepubliceerd.',
      reporting: 'Meld het ons.',
    };
    expect((await t.admin('/admin/api/policy-text/nl', { method: 'PUT', json: text })).status).toBe(200);
    const changed = await latest('policy_text.changed', null);
    expect(changed).toMatchObject({ actor: { kind: 'operator' }, target: 'policy_text:nl' });
    expect(changed.details.checks).toMatchObject({ changed: true, length_after: text.checks.length });
    expect(Object.keys(changed.details).sort()).toEqual(['checks', 'publication', 'reporting']);
    expectNoTraces(changed, Object.values(text));
    expect((await t.admin('/admin/api/policy-text/nl', { method: 'DELETE' })).status).toBe(204);
    const reset = await latest('policy_text.reset', null);
    expect(reset).toMatchObject({ actor: { kind: 'operator' }, target: 'policy_text:nl' });
    expectNoTraces(reset, Object.values(text));
  });

  it('domain tokens: issued and revoked under one name, never the token', async () => {
    const issued = await t.admin('/admin/api/tokens', { method: 'POST', json: { label: 'plugin' } });
    const { token } = await issued.json();
    const entry = await latest('domain_token.issued', null);
    expect((await t.admin(`/admin/api/tokens/${token}`, { method: 'DELETE' })).status).toBe(204);
    const revoked = await latest('domain_token.revoked', null);
    expect(entry).toMatchObject({
      actor: { kind: 'operator' },
      target: `domain_token:${sha256Hex(token).slice(0, 12)}`,
    });
    expect(revoked.target).toBe(entry.target);
    expectNoTraces([entry, revoked], [token]);
  });

  it('an erasure is audited with its counts, never the address (in clear or hashed)', async () => {
    await importReview({ name: NAME, email: ADDRESS, rating: 3, comment: COMMENT });
    const res = await t.admin(`/admin/api/customers?email=${encodeURIComponent(ADDRESS)}&webshop=${shop.id}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(200);
    const counts = await res.json();
    const entry = await latest('customer.erased');
    expect(entry).toMatchObject({ actor: { kind: 'operator' }, details: counts });
    expect(counts.reviews_anonymised).toBeGreaterThan(0);
    expectNoTraces(entry, [ADDRESS, sha256Hex(ADDRESS), NAME, 'annelies', 'brouwer']);
    // Erasing in every shop: a service-wide entry.
    await t.admin(`/admin/api/customers?email=${encodeURIComponent(ADDRESS)}`, { method: 'DELETE' });
    expectNoTraces(await latest('customer.erased', null), [ADDRESS, sha256Hex(ADDRESS)]);
  });
});

describe('dashboard settings: before → after', () => {
  const as = async (role: Role, s: Webshop) =>
    (await signedInAgent(t, { email: `${role}-${s.id}@m.example`, shopId: s.id, role })).headers;
  async function call(role: Role, s: Webshop, method: string, path: string, body: unknown) {
    const headers = { ...(await as(role, s)), 'content-type': 'application/json' };
    return t.fetch(`/dashboard/api/shops/${s.id}${path}`, { method, headers, body: JSON.stringify(body) });
  }

  it('integration, widget and invitation settings name the value before and after', async () => {
    const s = await t.createShop({ name: 'Dashboard Shop' });
    expect((await call('owner', s, 'PATCH', '/integration', { require_signed_order_data: true })).status).toBe(200);
    expect((await latest('integration.settings_changed', s.id)).details).toEqual({
      require_signed_order_data: { from: false, to: true },
    });
    expect((await call('owner', s, 'PATCH', '/widget', { position: 'right', tooltip: false })).status).toBe(200);
    expect((await latest('widget.settings_changed', s.id)).details).toEqual({
      sidebar: { position: { from: 'left', to: 'right' }, tooltip: { from: true, to: false } },
    });
    expect((await call('owner', s, 'PATCH', '/invitations/settings', { reminder_days: 0 })).status).toBe(200);
    expect((await latest('invitations.settings_changed', s.id)).details).toEqual({ reminder_days: { from: 7, to: 0 } });
  });

  it('a reply, its edit and its removal give the reply’s lengths, never its text', async () => {
    const s = await t.createShop({ name: 'Reply Shop', reply_access: true });
    const review = await t.services.reviews.create(s.id, {
      name: NAME,
      email: ADDRESS,
      rating: 4,
      language: 'nl',
      comment: COMMENT,
    });
    const first = 'Dank je wel, Annelies!';
    const second = 'Dank je wel!';
    const path = `/reviews/${review.id}/reply`;
    expect((await call('owner', s, 'POST', path, { text: first })).status).toBe(200);
    const created = await latest('reply.created', s.id);
    expect(created.details).toMatchObject({ text: { changed: true, length_before: 0, length_after: first.length } });
    expect((await call('owner', s, 'PATCH', path, { text: second })).status).toBe(200);
    const edited = await latest('reply.edited', s.id);
    expect(edited.details).toMatchObject({
      text: { changed: true, length_before: first.length, length_after: second.length },
    });
    expect((await call('owner', s, 'DELETE', path, {})).status).toBe(200);
    const deleted = await latest('reply.deleted', s.id);
    expect(deleted.details).toMatchObject({ text: { changed: true, length_before: second.length, length_after: 0 } });
    expectNoTraces([created, edited, deleted], [first, second, NAME, ADDRESS, COMMENT, 'annelies']);
  });
});
