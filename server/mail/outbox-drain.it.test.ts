// The outbox against a mail server that is down: the request that queues an e-mail answers as it always does, the
// worker's drain retries on the mail schedule, and once the server is back the e-mail arrives, once, with a link that
// works. A request for a sign-in link whose 15 minutes passed while the server was down is dropped, not sent late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { newLinkSecret } from '../links.js';
import type { Webshop } from '../webshops/store.js';
import { EDIT_LINK_DAYS } from '../pages/expiry.js';
import { OUTBOX_COLLECTION } from './outbox-mail.js';

const DAY_MS = 86_400_000;
let t: TestApp;
let port: number;
let sink: SmtpSink | undefined;
let shop: Webshop;
/** The service's clock runs with the real one, this far ahead (a test moves it past a sign-in request's expiry). */
let aheadMs = 0;

/** The mail server is stopped: nothing listens on its port. */
async function stopSmtp(): Promise<void> {
  await sink?.close();
  sink = undefined;
}
async function startSmtp(): Promise<SmtpSink> {
  sink = await startSmtpSink({ port });
  return sink;
}

beforeAll(async () => {
  port = (await startSmtp()).port;
  t = await startTestApp(
    {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Reviews <noreply@reviews.example>',
      // Retries a second apart, and drains that sweep every second: the test waits seconds, not hours.
      MAIL_RETRY_SCHEDULE: Array<string>(30).fill('1s').join(','),
      JOB_LOCK_MS: '2000',
    },
    { now: () => new Date(Date.now() + aheadMs) },
  );
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Fiets & Co' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink?.close();
});

const queued = () => t.db.collection<{ _id: string; attempts: number }>(OUTBOX_COLLECTION).find({}).toArray();

/** Polls (up to a minute: the machine may be busy) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const askForLink = (email: string) =>
  t.fetch('/dashboard/api/sign-in-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });

async function owner(email: string): Promise<void> {
  const user = await t.services.users.findOrCreate(email);
  await t.services.users.setRole(user.id, shop.id, 'owner');
}

describe('with the mail server down', () => {
  it('a sign-in link: the same answer, then the e-mail once the server is back, once, and its link signs in', async () => {
    await owner('owner@fiets.example');
    const usual = await askForLink('nobody@nowhere.example');
    await stopSmtp();

    const res = await askForLink('owner@fiets.example');
    expect(res.status).toBe(usual.status);
    expect(await res.json()).toEqual(await usual.json());
    // The drain tried, and failed: the e-mail waits in the outbox for its retry.
    await until(async () => (await queued()).some((m) => m.attempts >= 1), 'a failed attempt');

    const back = await startSmtp();
    await back.waitFor((s) => s.to('owner@fiets.example').length === 1, 60_000);
    await until(async () => (await queued()).length === 0, 'the outbox is empty');
    const mails = back.to('owner@fiets.example');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.messageId).toMatch(/^<sign-in\.[0-9a-f]{24}@reviews\.example>$/);

    const token = /\/dashboard\/sign-in\/([A-Za-z0-9_-]{43})/.exec(mails[0]!.body)![1]!;
    const signedIn = await t.fetch('/dashboard/sign-in', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:1' },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^session=/);
  });

  it('a new edit link: no 503 any more; the e-mail arrives once the server is back, and its link opens the review', async () => {
    const editToken = newLinkSecret();
    const review = await t.services.reviews.create(shop.id, {
      name: 'Jan',
      email: 'writer@fiets.example',
      rating: 4,
      language: 'en',
      comment: 'Good bikes',
      created: new Date(Date.now() - (EDIT_LINK_DAYS + 1) * DAY_MS),
      source: 'invitation',
      verified: true,
      editToken,
    });
    await stopSmtp();

    const res = await t.fetch(`/edit/${editToken}/renew`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Check your inbox');
    await until(async () => (await queued()).some((m) => m.attempts >= 1), 'a failed attempt');

    const back = await startSmtp();
    await back.waitFor((s) => s.to('writer@fiets.example').length === 1, 60_000);
    await until(async () => (await queued()).length === 0, 'the outbox is empty');
    const mails = back.to('writer@fiets.example');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.messageId).toMatch(new RegExp(`^<review\\.${review.id}\\.edit\\.\\d+@reviews\\.example>$`));
    const link = /\/edit\/([A-Za-z0-9_-]{16,128})/.exec(mails[0]!.body)![1]!;
    expect(link).not.toBe(editToken);
    expect((await t.fetch(`/edit/${link}`)).status).toBe(200);
  });

  it('a request for a sign-in link not sent within its 15 minutes is dropped, not sent late', async () => {
    await owner('late@fiets.example');
    await stopSmtp();
    expect((await askForLink('late@fiets.example')).status).toBe(202);
    await until(async () => (await queued()).some((m) => m.attempts >= 1), 'a failed attempt');
    aheadMs += 16 * 60_000;

    const back = await startSmtp();
    await until(async () => (await queued()).length === 0, 'the outbox is empty');
    // A marker e-mail queued after it went out: anything the drain would still send is out too.
    await owner('marker@fiets.example');
    expect((await askForLink('marker@fiets.example')).status).toBe(202);
    await back.waitFor((s) => s.to('marker@fiets.example').length === 1, 60_000);
    expect(back.to('late@fiets.example')).toEqual([]);
  });

  it('an e-mail that cannot be composed is retried later, and does not hold up the e-mails behind it', async () => {
    const back = sink ?? (await startSmtp());
    const now = new Date(Date.now() + aheadMs);
    // Due before anything else, in a language no template has: composing it throws.
    const poison = { kind: 'removal', reviewId: 999_999, shopId: shop.id, to: 'poison@fiets.example', ground: 'spam' };
    await t.services.outbox.enqueue(
      'review.999999.removed',
      { ...poison, language: 'xx' } as never,
      new Date(now.getTime() - 60_000),
    );
    await owner('behind@fiets.example');
    expect((await askForLink('behind@fiets.example')).status).toBe(202);
    await back.waitFor((s) => s.to('behind@fiets.example').length === 1, 60_000);
    const stuck = await t.services.outbox.get('review.999999.removed');
    expect(stuck?.attempts).toBeGreaterThanOrEqual(1);
    expect(stuck?.due.getTime()).toBeGreaterThan(now.getTime());
    expect(back.to('poison@fiets.example')).toEqual([]);
  });
});
