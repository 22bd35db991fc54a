// Scale-out as the README's deployment section offers it, tried as an operator would: two `ROLE=api` processes and
// one `ROLE=worker` on the embedded database (FerretDB on SQLite, started as the service starts it, a server of its own),
// a real SMTP server and a real webhook receiver; the API processes push their wake-ups to the worker. 300 invitations due at once are posted over both API processes,
// with 50 review imports among them; every e-mail and every webhook delivery must arrive, none twice, promptly.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../server/db/embedded.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { pushEnv, startService, until, type ServiceProcess } from './topology.js';
import { freePort } from '../server/db/embedded.js';

const INVITATIONS = 300;
const IMPORTS = 50;
const CLIENTS = 10;
const ADMIN_TOKEN = 'scale-out-test-admin-token-0123456789';
/** How long after the last request everything must have arrived (one ROLE=all process needs about 3 s). */
const ARRIVAL_LIMIT_MS = 30_000;

let embedded: EmbeddedDatabase | undefined;
let dataDir: string;
let mongodbUri: string;
const dbName = `scale_${randomBytes(6).toString('hex')}`;
let client: MongoClient;
let db: Db;
let sink: SmtpSink;
let receiver: Receiver;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scale-out-'));
  // A database server of its own, as an operator runs it; a MongoDB given to the test run is used as it is.
  if (inject('databaseKind') === 'external') mongodbUri = inject('mongoUri');
  else {
    embedded = await startEmbeddedDatabase(dataDir);
    mongodbUri = embedded.uri;
  }
  client = new MongoClient(mongodbUri);
  await client.connect();
  db = client.db(dbName);
  sink = await startSmtpSink();
  receiver = await startReceiver();
});

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await sink?.close();
  await receiver?.close();
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('delivers every e-mail and webhook once with two API processes and one worker', { timeout: 180_000 }, async () => {
  const env = {
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@scale.example>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  const workerPort = await freePort();
  const start = (role: 'api' | 'worker') =>
    startService({ role, mongodbUri, dbName, adminToken: ADMIN_TOKEN, env: { ...env, ...pushEnv(role, workerPort) } });
  // One API process first: it creates the indexes, which the others then find in place.
  services.push(await start('api'));
  services.push(...(await Promise.all([start('api'), start('worker')])));
  const apis = services.filter((s) => s.role === 'api').map((s) => s.url!);
  const logs = () => services.map((s) => `--- ${s.role}\n${s.output()}`).join('\n');

  const shop = (await (
    await fetch(`${apis[0]}/admin/api/webshops`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Scale Shop', url: 'https://shop.scale.example/' }),
    })
  ).json()) as { id: number; code: string };
  const shopQuery = `id=${shop.id}&code=${encodeURIComponent(shop.code)}`;
  const subscribed = (await (
    await fetch(`${apis[1]}/api/1.0/webhook.json?${shopQuery}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/scale`, topic: 'reviews.created' }),
    })
  ).json()) as { data: { secret: string } };
  receiver.secrets.set('/scale', subscribed.data.secret);

  // 300 invitations and 50 imports, interleaved, round-robin over the two API processes, ten clients at a time.
  const requests = [
    ...Array.from({ length: INVITATIONS }, (_, i) => ({ kind: 'invitation' as const, i })),
    ...Array.from({ length: IMPORTS }, (_, i) => ({ kind: 'import' as const, i })),
  ].sort(
    (a, b) =>
      a.i / (a.kind === 'invitation' ? INVITATIONS : IMPORTS) - b.i / (b.kind === 'invitation' ? INVITATIONS : IMPORTS),
  );
  const reviewIds: number[] = [];
  const posted = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < requests.length) {
        const n = next++;
        const request = requests[n]!;
        const api = apis[n % apis.length]!;
        if (request.kind === 'invitation') {
          const res = await fetch(`${api}/api/1.0/invitations.json?${shopQuery}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              email: `customer${request.i}@example.com`,
              order: `S-${request.i}`,
              delay: '0',
              language: 'en',
            }),
          });
          expect(await res.json()).toMatchObject({ message: 'Invitation successfully added to queue!' });
        } else {
          const res = await fetch(`${api}/admin/api/webshops/${shop.id}/reviews`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `Reviewer ${request.i}`,
              email: `reviewer${request.i}@example.com`,
              rating: 5,
            }),
          });
          expect(res.status).toBe(201);
          reviewIds.push(((await res.json()) as { id: number }).id);
        }
      }
    }),
  );
  const allPosted = Date.now();

  const outcomes = db.collection('invitation_outcomes');
  const deliveries = db.collection('webhook_deliveries');
  const mailsWhenPosted = sink.messageIds.length;
  const progress = () =>
    `posted in ${allPosted - posted} ms (${mailsWhenPosted} e-mails by then); ${Date.now() - allPosted} ms later ` +
    `${new Set(sink.messageIds).size} e-mails, ${new Set(receiver.at('/scale').map((r) => r.eventId)).size} events\n${logs()}`;
  await until(
    async () => {
      for (const s of services)
        if (s.child.exitCode !== null) throw new Error(`the ${s.role} process stopped: ${progress()}`);
      return (
        new Set(sink.messageIds).size >= INVITATIONS &&
        new Set(receiver.at('/scale').map((r) => r.eventId)).size >= IMPORTS
      );
    },
    ARRIVAL_LIMIT_MS,
    progress,
  );
  const arrived = Date.now();
  console.log(
    `scale-out test: ${INVITATIONS} invitations and ${IMPORTS} imports posted over 2 API processes in ` +
      `${((allPosted - posted) / 1000).toFixed(1)} s (${mailsWhenPosted} e-mails had arrived by then); all e-mails and ` +
      `webhooks arrived ${((arrived - allPosted) / 1000).toFixed(1)} s after the last request`,
  );
  // Recorded too, so that nothing is sent again later; then the processes stop as an operator stops them.
  await until(
    async () =>
      (await outcomes.countDocuments({ status: 'sent' })) === INVITATIONS &&
      (await deliveries.countDocuments({ status: 'delivered' })) === IMPORTS,
    30_000,
    progress,
  );
  await Promise.all(services.map((s) => s.stop()));

  // E-mail: each invitation's, once, and nothing else.
  const invitationIds = (
    await db
      .collection('invitations')
      .find({}, { projection: { _id: 1 } })
      .toArray()
  ).map((i) => `<invitation.${i._id.toHexString()}@scale.example>`);
  expect(invitationIds).toHaveLength(INVITATIONS);
  expect([...sink.messageIds].sort()).toEqual(invitationIds.sort());
  expect(new Set(sink.received.flatMap((m) => m.to)).size).toBe(INVITATIONS);

  // Webhooks: each review's event, once, signed.
  const got = receiver.at('/scale');
  expect(got.every((r) => r.verified && r.topic === 'reviews.created')).toBe(true);
  expect(got.map((r) => r.eventId).sort()).toEqual(reviewIds.map((id) => `${id}:1`).sort());

  // The wake-ups did not pile up: no job per item in Agenda's collection, one wake-up marker per kind of work.
  const jobs = await db.collection('jobs').find({}).toArray();
  expect(jobs.filter((j) => j.type !== 'single')).toEqual([]);
  expect(await db.collection('scheduler_wakeups').countDocuments({})).toBeLessThanOrEqual(4);
  // No errors logged (a transient one would be a warning, once per episode).
  expect(
    logs()
      .split('\n')
      .filter((line) => line.includes('"level":50')),
  ).toEqual([]);
});
