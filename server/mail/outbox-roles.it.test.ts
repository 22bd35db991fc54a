// The outbox in the split deployment: an API-only process (ROLE=api) queues the e-mail and answers; the worker
// (ROLE=worker, same database) is woken through the scheduler's wake-up marker and sends it, once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { OUTBOX_COLLECTION } from './outbox-mail.js';

let api: TestApp;
let worker: BuiltApp;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  const env = { SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>', SCHEDULER_POLL_MS: '200' };
  api = await startTestApp({ ...env, ROLE: 'api' });
  await api.services.scheduler.start();
  worker = await buildApp({
    config: { ...api.services.config, role: 'worker' },
    db: api.db,
    log: api.services.log,
  });
  await worker.services.scheduler.start();
});
afterAll(async () => {
  await worker.services.scheduler.stop();
  await api.services.scheduler.stop();
  worker.services.mailer.close();
  api.services.mailer.close();
  await api.close();
  await sink.close();
});

it('a sign-in link asked of an API-only process is sent by the worker, once', async () => {
  const shop = await api.createShop({ name: 'Fiets & Co' });
  const user = await api.services.users.findOrCreate('owner@fiets.example');
  await api.services.users.setRole(user.id, shop.id, 'owner');

  const res = await api.fetch('/dashboard/api/sign-in-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@fiets.example' }),
  });
  expect(res.status).toBe(202);
  await sink.waitFor((s) => s.to('owner@fiets.example').length === 1, 60_000);
  const end = Date.now() + 60_000;
  while ((await api.db.collection(OUTBOX_COLLECTION).countDocuments()) > 0 && Date.now() < end)
    await new Promise((r) => setTimeout(r, 50));
  expect(await api.db.collection(OUTBOX_COLLECTION).countDocuments()).toBe(0);
  expect(sink.to('owner@fiets.example')).toHaveLength(1);
});
