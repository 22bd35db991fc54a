import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { drainInvitations } from '../invitations/send.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Role } from '../accounts/roles.js';
import type { Webshop } from '../webshops/store.js';
import { buildApp } from '../app.js';
import { eraseCustomer } from '../customers/erase.js';

let sink: SmtpSink;
let t: TestApp;
let shop: Webshop;
let otherShop: Webshop;

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

function upload(csv: string | Uint8Array, { role = 'manager' as Role, s = shop, type = 'text/csv' } = {}) {
  return as(role, s).then((headers) =>
    t.fetch(`/dashboard/api/shops/${s.id}/invitations/csv`, {
      method: 'POST',
      headers: { ...headers, 'content-type': type },
      body: csv as BodyInit,
    }),
  );
}

async function list(query = '', { role = 'manager' as Role, s = shop } = {}) {
  const res = await t.fetch(`/dashboard/api/shops/${s.id}/invitations${query ? `?${query}` : ''}`, {
    headers: await as(role, s),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: Record<string, unknown>[]; total: number; page: number; page_size: number };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' });
  shop = await t.createShop({ name: 'Invite Shop' });
  otherShop = await t.createShop({ name: 'Other Shop' });
});
afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

describe('POST /dashboard/api/shops/:shopId/invitations/csv', () => {
  // As a Dutch spreadsheet saves it: BOM, semicolons, CRLF; row 3 has no usable address.
  const csv =
    '\uFEFFemail;order;name;language;delay\r\n' +
    'els@klant.example;A-1;Els de Vries;nl;3\r\n' +
    'not-an-address;A-2;Bad;en;3\r\n' +
    'joost@klant.example;A-3;"Joost; junior";en;3\r\n' +
    'zoë@klant.example;A-4;;;5\r\n';

  it('queues the good rows through Add invitation and names the bad row', async () => {
    const res = await upload(csv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      rows: 4,
      queued: 3,
      skipped_duplicates: 0,
      skipped_reviewed: 0,
      errors: [{ row: 3, message: 'email must be a valid e-mail address.' }],
      error_count: 1,
    });
    const page = await list('q=klant.example');
    expect(page.total).toBe(3);
    const byOrder = Object.fromEntries(page.items.map((i) => [i.order, i]));
    expect(byOrder['A-1']).toMatchObject({
      email: 'els@klant.example',
      name: 'Els de Vries',
      language: 'nl',
      state: 'queued',
      reason: null,
      client: 'dashboard-csv',
    });
    expect(byOrder['A-3']).toMatchObject({ name: 'Joost; junior', language: 'en' });
    // No language given: the shop's main language; the delay as given.
    const zoe = byOrder['A-4']!;
    expect(zoe).toMatchObject({ email: 'zoë@klant.example', language: 'en' });
    expect(Date.parse(zoe.send_at as string) - Date.parse(zoe.created as string)).toBe(5 * 86_400_000);
  });

  it('queues nothing twice when the same file is uploaded again', async () => {
    const res = await upload(csv);
    expect(await res.json()).toMatchObject({ queued: 0, skipped_duplicates: 3, error_count: 1 });
    expect((await list('q=klant.example')).total).toBe(3);
  });

  it('is the same rule as the API: an order invited through Add invitation is a duplicate in a file', async () => {
    await t.services.invitations.add(shop.id, invitationInput('api@klant.example', 'API-1'));
    const res = await upload(
      'email,order\napi@klant.example,API-1\nnew@klant.example,API-2\nnew@klant.example,API-2\n',
    );
    expect(await res.json()).toMatchObject({ rows: 3, queued: 1, skipped_duplicates: 2, errors: [] });
  });

  it('reads commas, quotes with line breaks, LF, columns in any order and case, and skips blank rows', async () => {
    const res = await upload(
      'Order,NAME,Email\n"C-1","Anne\nMarie",anne@comma.example\n,,\n"C-2",Piet,piet@comma.example',
    );
    expect(await res.json()).toMatchObject({ rows: 2, queued: 2, errors: [] });
    const page = await list('q=comma.example');
    expect(page.items.map((i) => [i.order, i.name]).sort()).toEqual([
      ['C-1', 'Anne Marie'],
      ['C-2', 'Piet'],
    ]);
  });

  it('names each bad row with what is wrong', async () => {
    const res = await upload(
      'email;order;language;delay\n' +
        ';X-1;en;1\n' +
        'ok@rows.example;X-2;klingon;1\n' +
        'ok@rows.example;X-3;en;soon\n' +
        `ok@rows.example;${'9'.repeat(300)};en;1\n` +
        'ok@rows.example;"X-5"x;en;1\n' +
        'ok@rows.example;X-6;en;1\n',
    );
    const body = await res.json();
    expect(body.queued).toBe(1);
    expect(body.errors).toEqual([
      { row: 2, message: 'email is empty' },
      { row: 3, message: expect.stringMatching(/^language "klingon"/) },
      { row: 4, message: expect.stringMatching(/^delay must be an integer/) },
      { row: 5, message: expect.stringMatching(/^order must be at most/) },
      { row: 6, message: 'text after a closing quote in field 2' },
    ]);
  });

  it('refuses a file it cannot read, naming why, and queues nothing', async () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ['order;name\nX;Y\n', /row 1 .*header.*email/],
      ['', /empty/],
      ['email,email\na@b.example,c@d.example\n', /named twice/],
      [Uint8Array.from([...Buffer.from('email;name\na@latin.example;Zo'), 0xeb, 0x0a]), /UTF-8/],
    ];
    for (const [file, message] of cases) {
      const res = await upload(file);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid');
      expect(body.error.message).toMatch(message);
    }
    expect((await list('q=latin.example')).total).toBe(0);
  });

  it('refuses a form upload (the file itself is the body) and a file over 10 MB before reading it', async () => {
    expect((await upload('email=a', { type: 'application/x-www-form-urlencoded' })).status).toBe(415);
    const big = await upload(`email\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe('payload_too_large');
  });

  it('lists at most 1,000 row errors, counting them all', async () => {
    const bad = Array.from({ length: 1500 }, (_, i) => `bad-${i};L-${i}\n`).join('');
    const res = await upload(`email;order\n${bad}listed@rows.example;L-ok\n`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ rows: 1501, queued: 1, error_count: 1500 });
    expect(body.errors).toHaveLength(1000);
    expect(body.errors[0]).toEqual({ row: 2, message: 'email must be a valid e-mail address.' });
  });

  it('refuses a file of more than 10,000 rows without reading it to its end; the answer comes on the same connection', async () => {
    // About 5 MB, streamed: most of it is still on its way when the reader stops.
    const pad = 'p'.repeat(400);
    const encoder = new TextEncoder();
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (next === 0) controller.enqueue(encoder.encode('email;order;name\n'));
        const lines = Array.from({ length: 500 }, () =>
          `bad-${next};O-${next};${pad}\n`.replace(/\d+/, String(next++)),
        );
        controller.enqueue(encoder.encode(lines.join('')));
        if (next >= 12_000) controller.close();
      },
    });
    const res = await t.fetch(`/dashboard/api/shops/${shop.id}/invitations/csv`, {
      method: 'POST',
      headers: { ...(await as('manager')), 'content-type': 'text/csv' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toEqual({
      code: 'payload_too_large',
      message: expect.stringMatching(/more than 10,000 rows.*nothing.*queued/i),
    });
  });

  it('is for managers and owners: support gets 403, another shop 404, no session 401', async () => {
    expect((await upload('email\nx@y.example\n', { role: 'owner' })).status).toBe(200);
    const support = await upload('email\nx@y.example\n', { role: 'support' });
    expect(support.status).toBe(403);
    expect((await support.json()).error.code).toBe('forbidden');
    const stranger = await t.fetch(`/dashboard/api/shops/${otherShop.id}/invitations/csv`, {
      method: 'POST',
      headers: { ...(await as('owner')), 'content-type': 'text/csv' },
      body: 'email\nx@y.example\n',
    });
    expect(stranger.status).toBe(404);
    expect((await t.fetch(`/dashboard/api/shops/${shop.id}/invitations`)).status).toBe(401);
    const supportList = await t.fetch(`/dashboard/api/shops/${shop.id}/invitations`, { headers: await as('support') });
    expect(supportList.status).toBe(403);
  });

  it('writes the upload to the audit trail, counts only', async () => {
    const entries = await t.services.audit.list({ shopId: shop.id, limit: 50 });
    const uploads = entries.filter((e) => e.action === 'invitations.csv_uploaded');
    expect(uploads.length).toBeGreaterThan(0);
    expect(uploads.at(-1)).toMatchObject({
      actor: { kind: 'user' },
      details: { rows: 4, queued: 3, skipped_duplicates: 0, errors: 1 },
    });
    expect(JSON.stringify(uploads)).not.toContain('klant.example');
  });
});

describe('GET /dashboard/api/shops/:shopId/invitations', () => {
  let s: Webshop;
  beforeAll(async () => {
    s = await t.createShop({ name: 'States Shop' });
    const { invitations } = t.services;
    const add = async (email: string, order: string, extra: Partial<ReturnType<typeof invitationInput>> = {}) => {
      const result = await invitations.add(s.id, { ...invitationInput(email, order), ...extra });
      if (!result.added) throw new Error('not added');
      return (await invitations.search(s.id, { order }, 1))[0]!._id;
    };
    const sent = await add('sent@state.example', 'S-1', {
      client: 'woocommerce',
      platformVersion: '8.9',
      pluginVersion: '2.1.0',
    });
    const failed = await add('failed@state.example', 'S-2');
    const unsubscribed = await add('gone@state.example', 'S-3');
    const waiting = await add('waiting@state.example', 'S-4');
    const at = new Date();
    await invitations.queue.finish({ _id: sent, status: 'sent', at, messageId: '<m1@x>', reason: null });
    await invitations.reminders.finish({
      _id: sent,
      status: 'sent',
      at: new Date(at.getTime() + 1000),
      messageId: '<r1@x>',
      reason: null,
    });
    // The first try of S-4 met a busy server: it waits for its retry with the server's answer.
    await invitations.queue.retryAt(
      waiting,
      new Date(at.getTime() + 600_000),
      1,
      'temporary: 451 4.3.0 try again later',
    );
    await invitations.queue.finish({
      _id: failed,
      status: 'failed',
      at,
      messageId: null,
      reason: 'permanent: 550 5.1.1 mailbox unknown',
    });
    await invitations.queue.finish({
      _id: unsubscribed,
      status: 'suppressed',
      at,
      messageId: null,
      reason: 'unsubscribed',
    });
  });

  it('gives each invitation its state and reason, newest first, paged', async () => {
    const page = await list('', { s, role: 'manager' });
    expect(page).toMatchObject({ total: 4, page: 1, page_size: 20 });
    expect(page.items.map((i) => [i.order, i.state, i.reason])).toEqual([
      ['S-4', 'queued', 'temporary: 451 4.3.0 try again later'],
      ['S-3', 'not_sent', 'unsubscribed'],
      ['S-2', 'failed', 'permanent: 550 5.1.1 mailbox unknown'],
      ['S-1', 'sent', null],
    ]);
    const sent = page.items[3]!;
    expect(sent).toMatchObject({
      client: 'woocommerce',
      platform_version: '8.9',
      plugin_version: '2.1.0',
      sent_at: expect.any(String),
    });
    expect(Date.parse(sent.reminder_sent_at as string) - Date.parse(sent.sent_at as string)).toBe(1000);
    expect(page.items.filter((i) => i.reminder_sent_at !== null).map((i) => i.order)).toEqual(['S-1']);
    const second = await list('page=2&page_size=3', { s });
    expect(second).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(second.items.map((i) => i.order)).toEqual(['S-1']);
  });

  it('searches addresses and orders, any case, as text (no pattern)', async () => {
    expect((await list('q=FAILED@', { s })).items.map((i) => i.order)).toEqual(['S-2']);
    expect((await list('q=s-3', { s })).items.map((i) => i.order)).toEqual(['S-3']);
    expect((await list(`q=${encodeURIComponent('.*')}`, { s })).total).toBe(0);
    expect((await list(`q=${encodeURIComponent('[')}`, { s })).total).toBe(0);
  });

  it('answers 400 invalid naming the parameter', async () => {
    const res = await t.fetch(`/dashboard/api/shops/${s.id}/invitations?page_size=500`, {
      headers: await as('manager', s),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({ code: 'invalid', message: expect.stringMatching(/^page_size: /) });
  });
});

describe('/dashboard/api/shops/:shopId/invitations/settings', () => {
  const path = () => `/dashboard/api/shops/${shop.id}/invitations/settings`;
  const patch = async (json: unknown, role: Role = 'manager') =>
    t.fetch(path(), {
      method: 'PATCH',
      headers: { ...(await as(role)), 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });

  it('shows the reminder days (default 7) and lets a manager change them, as the operator API sees it, audited', async () => {
    const before = await t.fetch(path(), { headers: await as('manager') });
    expect(await before.json()).toEqual({ reminder_days: 7 });
    const res = await patch({ reminder_days: 0 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ reminder_days: 0 });
    const operator = await t.admin(`/admin/api/webshops/${shop.id}`);
    expect((await operator.json()).reminder_days).toBe(0);
    const audit = await t.admin(`/admin/api/audit?webshop=${shop.id}`);
    expect(JSON.stringify(await audit.json())).toContain('invitations.settings_changed');
    expect((await patch({ reminder_days: 3 })).status).toBe(200);
  });

  it('refuses what is not a day count, names the field, and refuses support users', async () => {
    for (const bad of [
      { reminder_days: -1 },
      { reminder_days: 2.5 },
      { reminder_days: '3' },
      { reminder_days: 91 },
      {},
      { reminder_days: 3, other: 1 },
    ]) {
      const res = await patch(bad);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid');
    }
    expect((await patch({ reminder_days: 1 }, 'support')).status).toBe(403);
    expect((await t.fetch(path(), { headers: await as('support') })).status).toBe(403);
  });
});

describe('the invitations list across processes', () => {
  it('shows an invitation another process added, and drops those its erasure removed', async () => {
    const s = await t.createShop({ name: 'Two Processes Shop' });
    await list('', { s });
    // A second process on the same database: its writes do not reach this process's listeners, only the counter.
    const other = await buildApp({ config: t.services.config, db: t.db, log: t.services.log });
    await other.services.invitations.add(s.id, invitationInput('elsewhere@process.example', 'P-1'));
    // An answer waits for the read of the changes only so long (shop-view.ts): on a busy machine a later one shows it.
    await expect
      .poll(async () => (await list('', { s })).items.map((i) => i.order), { timeout: 10_000 })
      .toEqual(['P-1']);
    // An erasure elsewhere makes the next answer read the shop again: the erased address is not listed once more.
    await eraseCustomer(other.services, { email: 'elsewhere@process.example', shopId: s.id });
    expect((await list('', { s })).total).toBe(0);
  });

  it('drops an invitation erased in this process', async () => {
    const s = await t.createShop({ name: 'Erasure Shop' });
    await t.services.invitations.add(s.id, invitationInput('gone@erasure.example', 'E-1'));
    await t.services.invitations.add(s.id, invitationInput('stays@erasure.example', 'E-2'));
    expect((await list('', { s })).items.map((i) => i.order)).toEqual(['E-2', 'E-1']);
    await eraseCustomer(t.services, { email: 'gone@erasure.example' });
    expect((await list('', { s })).items.map((i) => i.order)).toEqual(['E-2']);
    await t.services.invitations.add(s.id, invitationInput('new@erasure.example', 'E-3'));
    expect((await list('', { s })).items.map((i) => i.order)).toEqual(['E-3', 'E-2']);
  });
});

describe('a file is queued only once it has been read to its end', () => {
  const header = 'email;order;name;language;delay\r\n';
  /** Rows due at once (delay 0), as in the report: whatever is queued goes out within seconds. */
  const rows = (domain: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `c${from + i}@${domain};P-${from + i};Klant ${from + i};nl;0\r\n`).join('');
  const path = (s: Webshop) => `/dashboard/api/shops/${s.id}/invitations/csv`;

  /** The file in pieces; a pause before the second, as on a slow line, so the server reads the first one alone. */
  async function streamed(s: Webshop, pieces: (string | Uint8Array)[]) {
    const encoder = new TextEncoder();
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next === 1) await pause(300);
        const piece = pieces[next++]!;
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
        if (next === pieces.length) controller.close();
      },
    });
    const headers = { ...(await as('manager', s)), 'content-type': 'text/csv' };
    return t.fetch(path(s), { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  }

  /** What the sender e-mails to the domain, once it has sent everything due. */
  async function mailedTo(domain: string): Promise<number> {
    await drainInvitations(t.services, { touch: async () => undefined });
    return sink.received.filter((m) => m.to.some((to) => to.endsWith(`@${domain}`))).length;
  }

  const uploadsAudited = async (s: Webshop) =>
    (await t.services.audit.list({ shopId: s.id, limit: 50 })).filter((e) => e.action === 'invitations.csv_uploaded');

  it('queues and sends nothing of a file that turns out not to be UTF-8 after 520 good rows', async () => {
    const s = await t.createShop({ name: 'Encoding Shop' });
    const res = await streamed(s, [
      header + rows('encoding.example', 1, 520),
      Uint8Array.from([0xff, 0xfe]),
      rows('encoding.example', 521, 10),
    ]);
    expect(res.status).toBe(400);
    expect((await list('', { s })).total).toBe(0);
    expect(await mailedTo('encoding.example')).toBe(0);
    expect((await res.json()).error).toEqual({
      code: 'invalid',
      message: expect.stringMatching(/not UTF-8.*nothing.*queued/i),
    });
  });

  it('queues nothing of an upload the client breaks off', async () => {
    const s = await t.createShop({ name: 'Broken Off Shop' });
    // The app behind a server of the test's own, which tells when the app is done with the request (nobody is
    // there to answer by then).
    const handle = t.app.callback();
    const handled: Promise<unknown>[] = [];
    const server = createServer((req, res) => void handled.push(handle(req, res)));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const headers = { ...(await as('manager', s)), 'content-type': 'text/csv' };
      const req = request({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: path(s),
        headers,
      });
      req.on('error', () => undefined);
      req.write(header + rows('broken.example', 1, 520));
      // The rows are on their way (and read) before the connection drops.
      await pause(500);
      req.destroy();
      await expect.poll(() => handled.length).toBe(1);
      await Promise.allSettled(handled);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
    expect((await list('', { s })).total).toBe(0);
    expect(await mailedTo('broken.example')).toBe(0);
  });

  it('queues nothing of a file over a limit, and says so', async () => {
    const s = await t.createShop({ name: 'Limits Shop' });
    // One row more than a file may have, every one of them good.
    const rowsOver = await streamed(s, [header + rows('limits.example', 1, 5000), rows('limits.example', 5001, 5001)]);
    expect(rowsOver.status).toBe(413);
    expect((await rowsOver.json()).error).toEqual({
      code: 'payload_too_large',
      message: expect.stringMatching(/more than 10,000 rows.*nothing.*queued/i),
    });
    // 600 good rows, then blank lines past 10 MB, with no Content-Length to refuse it by.
    const blank = '\r\n'.repeat(1024 * 1024);
    const bytesOver = await streamed(s, [
      header + rows('limits.example', 20_001, 600),
      ...Array.from({ length: 6 }, () => blank),
    ]);
    expect(bytesOver.status).toBe(413);
    expect((await bytesOver.json()).error).toEqual({
      code: 'payload_too_large',
      message: expect.stringMatching(/larger than 10 MB.*nothing.*queued/i),
    });
    expect((await list('', { s })).total).toBe(0);
    expect(await mailedTo('limits.example')).toBe(0);
  }, 120_000);

  it('queues the good rows of a file with bad ones, names the bad rows, and writes one audit entry of counts', async () => {
    const s = await t.createShop({ name: 'Bad Rows Shop' });
    // Over two batches of the queue: a bad row in each, a repeat of an order above, a quoted line break (one
    // row, two lines), and a blank row (not counted).
    const good = (from: number, count: number) => rows('bad-rows.example', from, count);
    const file =
      header +
      good(1, 400) + // rows 2-401
      'no-address;X-1;Klant X;nl;0\r\n' + // row 402
      good(401, 199) + // rows 403-601
      'c1@bad-rows.example;P-1;Klant 1 again;nl;0\r\n' + // row 602: a repeat
      'c600@bad-rows.example;P-600;"Klant\r\n600";nl;0\r\n' + // row 603, on two lines
      ';;;;\r\n' + // row 604: blank
      'c601@bad-rows.example;P-601;Klant;klingon;0\r\n' + // row 605
      good(602, 100) + // rows 606-705
      'c702@bad-rows.example;P-702;Klant;nl;soon\r\n'; // row 706
    const res = await upload(file, { s });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      rows: 704,
      queued: 700,
      skipped_duplicates: 1,
      skipped_reviewed: 0,
      errors: [
        { row: 402, message: 'email must be a valid e-mail address.' },
        { row: 605, message: expect.stringMatching(/^language "klingon"/) },
        { row: 706, message: expect.stringMatching(/^delay must be an integer/) },
      ],
      error_count: 3,
    });
    expect((await list('', { s })).total).toBe(700);
    const audited = await uploadsAudited(s);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actor: { kind: 'user' },
      details: { rows: 704, queued: 700, skipped_duplicates: 1, skipped_reviewed: 0, errors: 3 },
    });
    expect(JSON.stringify(audited)).not.toMatch(/bad-rows\.example|Klant|P-\d/);
  }, 120_000);
});
