// Kill the service with SIGKILL while it sends 200 due invitations, start it again, and count what arrived:
// every e-mail at least once, and any second copy with the same Message-ID.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MongoClient, type Db, type ObjectId } from 'mongodb';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { InvitationStore, type Invitation } from '../invitations/store.js';
import type { InvitationOutcome } from '../invitations/queue.js';
import { WebshopStore } from '../webshops/store.js';

const COUNT = 200;
const DOMAIN = 'crash.example';

let client: MongoClient;
let db: Db;
let dbName: string;
let dataDir: string;
let sink: SmtpSink;
const children: ChildProcess[] = [];

beforeAll(async () => {
  client = new MongoClient(inject('mongoUri'));
  await client.connect();
  dbName = `crash_${randomBytes(6).toString('hex')}`;
  db = client.db(dbName);
  dataDir = mkdtempSync(join(tmpdir(), 'crash-'));
  // Slow enough per message that the kill lands in the middle of the run.
  sink = await startSmtpSink({ delayMs: 20 });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sink.close();
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function startService(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // Not the whole environment: vitest adds variables (BASE_URL=/, …) the service would read.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      BASE_URL: 'https://reviews.crash.example',
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB: dbName,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: 'crash-test-admin-token-0123456789',
      DEMO_SHOP: '0',
      PORT: '0',
      ROLE: 'all',
      SMTP_URL: sink.url,
      MAIL_FROM: `Reviews <noreply@${DOMAIN}>`,
      JOB_LOCK_MS: '4000',
      SCHEDULER_POLL_MS: '200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

const until = async (check: () => boolean | Promise<boolean>, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

it('loses no invitation when the process is killed mid-sending; a second copy keeps its Message-ID', { timeout: 120_000 }, async () => {
  const shop = await new WebshopStore(db, { ttlMs: 0, maxEntries: 10, maxBytes: 1e6 }).create({ name: 'Crash Shop', url: 'https://crash.example/' });
  const store = new InvitationStore(db);
  for (let i = 0; i < COUNT; i++) {
    await store.add(shop.id, {
      email: `customer${i}@example.com`,
      order: `C-${i}`,
      language: 'en',
      delay: 0,
      customerName: '',
      products: [],
      client: null,
      platformVersion: null,
      pluginVersion: null,
      maxPerEmail: null,
    });
  }
  const invitations = db.collection<Invitation & { _id: ObjectId }>('invitations');
  const expected = new Set(
    (await invitations.find({}, { projection: { _id: 1 } }).toArray()).map((i) => `<invitation.${i._id.toHexString()}@${DOMAIN}>`),
  );
  expect(expected.size).toBe(COUNT);

  const first = startService();
  const exited = new Promise((ok) => first.once('exit', ok));
  await until(() => sink.messageIds.length >= COUNT / 3 || first.exitCode !== null, 60_000, 'the first third of the e-mails');
  expect(first.exitCode).toBeNull();
  first.kill('SIGKILL');
  await exited;
  const atKill = sink.messageIds.length;
  const outcomes = db.collection<InvitationOutcome>('invitation_outcomes');
  const recordedAtKill = await outcomes.countDocuments({ status: 'sent' });
  expect(atKill).toBeLessThan(COUNT);

  startService();
  await until(async () => (await outcomes.countDocuments({ status: 'sent' })) === COUNT, 90_000, 'every invitation sent');

  const received = sink.messageIds;
  const counts = new Map<string, number>();
  for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
  // Every e-mail arrived, and nothing arrived that was not one of them.
  expect([...expected].filter((id) => !counts.has(id))).toEqual([]);
  expect([...counts.keys()].filter((id) => !expected.has(id))).toEqual([]);
  // Each recipient got one Message-ID, however many copies.
  const idsByRecipient = new Map<string, Set<string>>();
  for (const m of sink.received) for (const to of m.to) idsByRecipient.set(to, (idsByRecipient.get(to) ?? new Set()).add(m.messageId));
  expect(idsByRecipient.size).toBe(COUNT);
  expect([...idsByRecipient.values()].every((ids) => ids.size === 1)).toBe(true);
  // The record matches what was sent.
  for (const o of await outcomes.find({}).toArray()) expect(o.messageId).toBe(`<invitation.${o._id.toHexString()}@${DOMAIN}>`);

  const duplicates = received.length - COUNT;
  console.log(
    `crash test: killed after ${atKill} e-mails arrived (${recordedAtKill} recorded as sent); ` +
      `${received.length} arrived in all for ${COUNT} invitations: ${duplicates} second ${duplicates === 1 ? 'copy' : 'copies'}, ` +
      'each with the Message-ID of its first copy',
  );
  // Only messages between the server's acceptance and our record can arrive twice: at most one per sending slot
  // (two per pooled connection, MAIL_CONNECTIONS=5).
  expect(duplicates).toBeLessThanOrEqual(10);
});
