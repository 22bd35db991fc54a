// Never lost, never twice, as the scheduling issue asks it: with 200 invitations due and 50 review events pending,
// the real service process is killed with SIGKILL in the middle of sending both, and started again. Every e-mail
// must arrive at least once (a second copy with the Message-ID of the first), every event at least once (a repeat
// only under its own X-Event-Id), and each event's deliveries must have been created exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { invitationInput } from './invitations.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { testConfig } from '../server/config.js';
import { InvitationStore, type Invitation } from '../server/invitations/store.js';
import type { InvitationOutcome } from '../server/invitations/queue.js';
import { ReviewStore } from '../server/reviews/store.js';
import { EventQueue, WEBHOOK_EVENT_QUEUE } from '../server/webhooks/event-queue.js';
import { WebhookStore } from '../server/webhooks/store.js';
import { WebshopStore } from '../server/webshops/store.js';
import { Caches } from '../server/cache.js';

const INVITATIONS = 200;
const EVENTS = 50;
const DOMAIN = 'crash.example';

let client: MongoClient;
let db: Db;
let dbName: string;
let dataDir: string;
let sink: SmtpSink;
let receiver: Receiver;
const children: ChildProcess[] = [];
/** The peers stop answering once they have taken what the kill waits for, so that it lands mid-sending at any pace. */
const KILL_AFTER = { mails: 20, requests: 5 };
let stalling = true;
let endStall!: () => void;
const stall = new Promise<void>((ok) => (endStall = ok));

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  dbName = `crash_${randomBytes(6).toString('hex')}`;
  db = client.db(dbName);
  dataDir = mkdtempSync(join(tmpdir(), 'crash-'));
  // Slow peers that stall after a while, so that the kill lands while both kinds of work are under way.
  sink = await startSmtpSink({
    delayMs: 50,
    hold: () => (stalling && sink.messageIds.length > KILL_AFTER.mails ? stall : undefined),
  });
  receiver = await startReceiver();
});

afterAll(async () => {
  endStall();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sink.close();
  await receiver.close();
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The service as `npm start` runs it (ROLE=all), against the test database; its output is kept for failures. */
function startService(): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // Not the test runner's environment: vitest sets variables (BASE_URL=/, …) that the service would read.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      BASE_URL: `https://reviews.${DOMAIN}`,
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB: dbName,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: 'crash-test-admin-token-0123456789',
      DEMO_SHOP: '0',
      PORT: '0',
      ROLE: 'all',
      SMTP_URL: sink.url,
      MAIL_FROM: `Reviews <noreply@${DOMAIN}>`,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '1,2,3',
      // Short, so the restart takes the killed process's claims over soon; long enough that a busy machine's stalls
      // (the claims are renewed at half the lease) do not let a live sender's claims run out and be sent twice.
      JOB_LOCK_MS: '12000',
      SCHEDULER_POLL_MS: '200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  children.push(child);
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((ok) => child.once('exit', () => ok()));

async function until(check: () => boolean | Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

it('loses no e-mail and no webhook event when the service is killed mid-sending', { timeout: 180_000 }, async () => {
  const config = testConfig();
  const webshops = new WebshopStore(db, new Caches(config.cache).cache('webshops'));
  const reviews = new ReviewStore(db);
  // Events queued with each review write, as a running service does.
  reviews.follow(new EventQueue(db));
  const webhooks = new WebhookStore(db);
  const invitationStore = new InvitationStore(db);
  await Promise.all([
    webshops.ensureIndexes(),
    reviews.ensureIndexes(),
    webhooks.ensureIndexes(),
    invitationStore.ensureIndexes(),
  ]);
  const shop = await webshops.create({ name: 'Crash Shop', url: `https://${DOMAIN}/` });

  // 200 invitations due now.
  for (let i = 0; i < INVITATIONS; i++) {
    await invitationStore.add(shop.id, invitationInput(`customer${i}@example.com`, `C-${i}`));
  }
  const invitations = db.collection<Invitation & { _id: ObjectId }>('invitations');
  const expectedMails = new Set(
    (await invitations.find({}, { projection: { _id: 1 } }).toArray()).map(
      (i) => `<invitation.${i._id.toHexString()}@${DOMAIN}>`,
    ),
  );
  expect(expectedMails.size).toBe(INVITATIONS);

  // 50 review events pending, for a subscription whose receiver answers slowly (requests are in flight at the kill).
  const subscription = await webhooks.create(shop.id, {
    url: `${receiver.url}/crash`,
    topic: 'reviews.created',
    is_active: true,
  });
  receiver.secrets.set('/crash', subscription.secret);
  receiver.responders.set('/crash', (_req, count) => ({
    status: 200,
    delayMs: 300,
    until: stalling && count > KILL_AFTER.requests ? stall : undefined,
  }));
  const ids: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    ids.push(
      (await reviews.create(shop.id, { name: `Reviewer ${i}`, email: `r${i}@example.com`, rating: 5, language: 'nl' }))
        .id,
    );
  }
  // Five as an earlier crash between the review write and its event left them: no event queued, and the write's
  // announcement in `review_writes` never removed.
  const lost = ids.slice(EVENTS - 5);
  await db.collection(WEBHOOK_EVENT_QUEUE).deleteMany({ 'payload.reviewId': { $in: lost } });
  await db
    .collection('review_writes')
    .insertOne({ _id: new ObjectId(), shopId: shop.id, at: new Date(Date.now() - 120_000) });
  const expectedEvents = new Set(ids.map((id) => `${id}:1`));

  const first = startService();
  const progress = () =>
    `${sink.messageIds.length} e-mails, ${receiver.at('/crash').length} webhook requests\n${first.output()}`;
  await until(
    () => {
      if (first.child.exitCode !== null) throw new Error(`the service stopped by itself: ${progress()}`);
      return sink.messageIds.length >= KILL_AFTER.mails && receiver.at('/crash').length >= KILL_AFTER.requests;
    },
    60_000,
    progress,
  );
  first.child.kill('SIGKILL');
  await exited(first.child);
  stalling = false;
  endStall();
  const mailsAtKill = sink.messageIds.length;
  const requestsAtKill = receiver.at('/crash').length;
  const outcomes = db.collection<InvitationOutcome>('invitation_outcomes');
  const deliveries = db.collection('webhook_deliveries');
  const recordedAtKill = await outcomes.countDocuments({ status: 'sent' });
  // Killed in the middle of both.
  expect(mailsAtKill).toBeLessThan(INVITATIONS);
  expect(requestsAtKill).toBeLessThan(EVENTS);

  const second = startService();
  await until(
    async () =>
      (await outcomes.countDocuments({ status: 'sent' })) === INVITATIONS &&
      (await deliveries.countDocuments({ status: 'delivered' })) === EVENTS,
    120_000,
    () =>
      `after the restart: ${sink.messageIds.length} e-mails, ${receiver.at('/crash').length} webhook requests\n${second.output()}`,
  );
  second.child.kill('SIGTERM');
  await exited(second.child);

  // E-mail: every one arrived, nothing else did, and a second copy carries the Message-ID of the first.
  const mailCounts = new Map<string, number>();
  for (const id of sink.messageIds) mailCounts.set(id, (mailCounts.get(id) ?? 0) + 1);
  expect([...expectedMails].filter((id) => !mailCounts.has(id))).toEqual([]);
  expect([...mailCounts.keys()].filter((id) => !expectedMails.has(id))).toEqual([]);
  const idsByRecipient = new Map<string, Set<string>>();
  for (const m of sink.received)
    for (const to of m.to) idsByRecipient.set(to, (idsByRecipient.get(to) ?? new Set()).add(m.messageId));
  expect(idsByRecipient.size).toBe(INVITATIONS);
  expect([...idsByRecipient.values()].every((messageIds) => messageIds.size === 1)).toBe(true);
  for (const o of await outcomes.find({}).toArray())
    expect(o.messageId).toBe(`<invitation.${o._id.toHexString()}@${DOMAIN}>`);

  // Webhooks: every event arrived, signed; a repeat is the same event under the same X-Event-Id.
  const got = receiver.at('/crash');
  expect(got.every((r) => r.verified && r.topic === 'reviews.created')).toBe(true);
  expect(new Set(got.map((r) => r.eventId))).toEqual(expectedEvents);
  const bodiesById = new Map<string, Set<string>>();
  const idsByBody = new Map<string, Set<string>>();
  for (const r of got) {
    bodiesById.set(r.eventId!, (bodiesById.get(r.eventId!) ?? new Set()).add(r.raw));
    idsByBody.set(r.raw, (idsByBody.get(r.raw) ?? new Set()).add(r.eventId!));
  }
  expect([...bodiesById.values()].every((bodies) => bodies.size === 1)).toBe(true);
  expect([...idsByBody.values()].every((eventIds) => eventIds.size === 1)).toBe(true);
  for (const r of got) expect(JSON.parse(r.raw).id).toBe(Number(r.eventId!.split(':')[0]));
  // Each event's delivery was created exactly once.
  expect(await deliveries.countDocuments({})).toBe(EVENTS);

  const mailCopies = sink.messageIds.length - INVITATIONS;
  const eventRepeats = got.length - EVENTS;
  console.log(
    `crash test: killed after ${mailsAtKill} e-mails (${recordedAtKill} recorded as sent) and ${requestsAtKill} webhook ` +
      `requests; in all ${sink.messageIds.length} e-mails for ${INVITATIONS} invitations (${mailCopies} second copies, ` +
      `same Message-ID) and ${got.length} requests for ${EVENTS} events (${eventRepeats} repeats, same X-Event-Id)`,
  );
  // Only what was between the peer's acceptance and our record can go twice: at most one per sending slot
  // (two per pooled SMTP connection, MAIL_CONNECTIONS=5; eight webhook requests in parallel, for each of two runs).
  expect(mailCopies).toBeLessThanOrEqual(10);
  expect(eventRepeats).toBeLessThanOrEqual(16);
});
