// Asking for sign-in links is limited per address (however many clients ask, in however many processes) and per
// client (whatever the addresses). The limit per address stops the e-mails, never the person: a request over it is
// answered exactly as any other (and as one for an unknown address), so nobody can lock a user out by asking for
// their links. The limit per client answers 429 with Retry-After. A fresh app (and database) per test, with the
// real SMTP server.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { captureLog, type CapturedLog } from '../../test/log-capture.js';
import { buildApp } from '../app.js';
import { LINKS_PER_CLIENT } from './routes.js';
import { LINKS_PER_ADDRESS_PER_DAY, LINKS_PER_ADDRESS_PER_HOUR } from './link-store.js';
import { requestSignInLink } from './service.js';

let t: TestApp | undefined;
let sink: SmtpSink | undefined;
let captured: CapturedLog;
let clock = new Date('2026-03-02T09:00:00Z');
const HOUR = 3_600_000;
afterEach(async () => {
  await t?.services.scheduler.stop();
  t?.services.mailer.close();
  await t?.close();
  await sink?.close();
  t = undefined;
  sink = undefined;
  clock = new Date('2026-03-02T09:00:00Z');
});

/** An app with the SMTP sink, behind a proxy (each request may come from another client address). */
async function start(): Promise<TestApp> {
  sink = await startSmtpSink();
  captured = captureLog('debug');
  t = await startTestApp({ SMTP_URL: sink.url, TRUST_PROXY: '1' }, { now: () => clock, log: captured.log });
  // The worker's outbox drain sends the e-mails.
  await t.services.scheduler.start();
  return t;
}

/**
 * What the requests made so far decided (limited, no_access, sent), once each has (the route answers before), sorted:
 * requests made together may finish in any order.
 */
async function outcomes(requests: number): Promise<string[]> {
  const decided = () => captured.lines.filter((l) => l.msg === 'sign-in link asked for').map((l) => String(l.outcome));
  await captured.waitFor(() => decided().length >= requests);
  return decided().sort();
}

const times = (n: number, outcome: string) => Array<string>(n).fill(outcome);

/** A user of a shop, made without any e-mail. */
async function userWithAccess(app: TestApp, email: string): Promise<void> {
  const shop = await app.createShop();
  const user = await app.services.users.findOrCreate(email);
  await app.services.users.setRole(user.id, shop.id, 'owner');
}

let nextClient = 1;
/** Every request from another client address, so the limit per client stays out of the way. */
const freshClient = () => `198.51.100.${nextClient++ % 250}`;

const ask = (app: TestApp, email: string, ip = freshClient()) =>
  app.fetch('/dashboard/api/sign-in-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email }),
  });

const askByForm = (app: TestApp, email: string, ip = freshClient()) =>
  app.fetch('/dashboard/sign-in/new', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({ email }).toString(),
  });

/** Everything a client sees of an answer but its date. */
async function seen(res: Response) {
  const headers = [...res.headers].filter(([name]) => name !== 'date');
  return { status: res.status, headers, body: await res.text() };
}

describe('sign-in link limit per address', () => {
  it(`${LINKS_PER_ADDRESS_PER_HOUR} links an hour; a request over it answers as any other, in the API and the form, and sends nothing`, async () => {
    const app = await start();
    await userWithAccess(app, 'victim@shop.example');
    await userWithAccess(app, 'other@shop.example');

    const under: Awaited<ReturnType<typeof seen>>[] = [];
    for (let i = 0; i < LINKS_PER_ADDRESS_PER_HOUR - 1; i++)
      under.push(await seen(await ask(app, 'victim@shop.example')));
    const formUnder = await seen(await askByForm(app, 'victim@shop.example'));
    await sink!.waitFor((s) => s.to('victim@shop.example').length === LINKS_PER_ADDRESS_PER_HOUR, 60_000);

    // Over the limit, in any spelling of the address, from any client: the answer of every other request.
    const over = await seen(await ask(app, ' VICTIM@Shop.Example'));
    const formOver = await seen(await askByForm(app, 'victim@shop.example'));
    const unknown = await seen(await ask(app, 'nobody@nowhere.example'));
    const formUnknown = await seen(await askByForm(app, 'nobody@nowhere.example'));
    expect(under[0]!.status).toBe(202);
    for (const answer of [...under, over, unknown]) expect(answer).toEqual(under[0]);
    expect(formUnder.status).toBe(202);
    expect(formUnder.body).toContain('If this address has access to a shop, a sign-in link is on its way.');
    for (const answer of [formOver, formUnknown]) expect(answer).toEqual(formUnder);

    expect(await outcomes(9)).toEqual([
      ...times(2, 'limited'),
      ...times(2, 'no_access'),
      ...times(LINKS_PER_ADDRESS_PER_HOUR, 'sent'),
    ]);
    // Sent by the worker's drain, after the answers.
    await sink!.waitFor((s) => s.to('victim@shop.example').length >= LINKS_PER_ADDRESS_PER_HOUR, 60_000);
    expect(sink!.to('victim@shop.example')).toHaveLength(LINKS_PER_ADDRESS_PER_HOUR);

    // Another address is not held up; the next hour, the address is sent links again.
    expect((await ask(app, 'other@shop.example')).status).toBe(202);
    clock = new Date(clock.getTime() + HOUR);
    expect((await ask(app, 'victim@shop.example')).status).toBe(202);
    expect((await outcomes(11)).filter((o) => o === 'sent')).toHaveLength(LINKS_PER_ADDRESS_PER_HOUR + 2);
    await sink!.waitFor((s) => s.to('victim@shop.example').length === LINKS_PER_ADDRESS_PER_HOUR + 1, 60_000);
  });

  it(`${LINKS_PER_ADDRESS_PER_DAY} links a day, whatever the hours`, async () => {
    const app = await start();
    await userWithAccess(app, 'daily@shop.example');
    const hours = LINKS_PER_ADDRESS_PER_DAY / LINKS_PER_ADDRESS_PER_HOUR;
    const perHour = LINKS_PER_ADDRESS_PER_HOUR + 1;
    for (let hour = 0; hour <= hours; hour++) {
      // Each hour asks for more than the hour allows: the refused ones do not count against the day.
      for (let i = 0; i < perHour; i++) expect((await ask(app, 'daily@shop.example')).status).toBe(202);
      const sent = Math.min(hour + 1, hours) * LINKS_PER_ADDRESS_PER_HOUR;
      expect(await outcomes((hour + 1) * perHour)).toEqual([
        ...times((hour + 1) * perHour - sent, 'limited'),
        ...times(sent, 'sent'),
      ]);
      // Sent before the hour passes: a request for a link not sent within its 15 minutes is dropped.
      await sink!.waitFor((s) => s.to('daily@shop.example').length === sent, 60_000);
      clock = new Date(clock.getTime() + HOUR);
    }
    await sink!.waitFor((s) => s.to('daily@shop.example').length === LINKS_PER_ADDRESS_PER_DAY, 60_000);

    // The next UTC day.
    clock = new Date('2026-03-03T00:00:00Z');
    expect((await ask(app, 'daily@shop.example')).status).toBe(202);
    expect((await outcomes((hours + 1) * perHour + 1)).filter((o) => o === 'sent')).toHaveLength(
      LINKS_PER_ADDRESS_PER_DAY + 1,
    );
    await sink!.waitFor((s) => s.to('daily@shop.example').length === LINKS_PER_ADDRESS_PER_DAY + 1, 60_000);
  });

  it(`${LINKS_PER_ADDRESS_PER_HOUR} links an hour across processes, not that many per process`, async () => {
    const app = await start();
    await userWithAccess(app, 'inbox@shop.example');
    // A second API process on the same database.
    const other = await buildApp({ config: app.services.config, db: app.db, log: app.services.log, now: () => clock });
    try {
      const outcomes: string[] = [];
      for (let i = 0; i <= LINKS_PER_ADDRESS_PER_HOUR; i++) {
        const services = i % 2 ? other.services : app.services;
        outcomes.push(await requestSignInLink(services, 'inbox@shop.example', 'en'));
      }
      outcomes.push(await requestSignInLink(app.services, 'inbox@shop.example', 'en'));
      expect(outcomes).toEqual([...Array<string>(LINKS_PER_ADDRESS_PER_HOUR).fill('sent'), 'limited', 'limited']);
      // An address without access is sent nothing and takes no place.
      expect(await requestSignInLink(other.services, 'nobody@nowhere.example', 'en')).toBe('no_access');
      await sink!.waitFor((s) => s.to('inbox@shop.example').length === LINKS_PER_ADDRESS_PER_HOUR, 60_000);
    } finally {
      other.services.mailer.close();
      await other.services.scheduler.stop().catch(() => undefined);
    }
  });
});

describe('sign-in link limit per client', () => {
  it(`one client: ${LINKS_PER_CLIENT} requests in 15 minutes, whatever the addresses`, async () => {
    const app = await start();
    for (let i = 0; i < LINKS_PER_CLIENT; i++)
      expect((await ask(app, `a${i}@shop.example`, '203.0.113.7')).status).toBe(202);
    const res = await ask(app, 'fresh@shop.example', '203.0.113.7');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect((await res.json()).error.code).toBe('too_many_requests');
    // The same form on the pages counts too, and answers as a page.
    const page = await askByForm(app, 'fresh@shop.example', '203.0.113.7');
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Another client is not held up.
    expect((await ask(app, 'fresh@shop.example', '203.0.113.8')).status).toBe(202);
  });
});
