// `npx tsx bench/idle.ts`: what an idle service costs. One `ROLE=all` process (as `npm start` runs it, with its
// scheduler) on its own embedded database, seeded with BENCH_REVIEWS (default 20,000) reviews over four shops in
// the states a running shop has (published, waiting for confirmation, with replies, with an edit e-mail still to
// come, a few with an e-mail due now or an event not yet recorded), as many sent invitations and a few still to
// send, one shop's webhook with a delivery history. The seed is written straight into the database before the
// service starts, as an older version would have left it: the start-up work (migrations, the catch-up runs, the due
// e-mails and events) is waited for, then CPU seconds (user + system, /proc/<pid>/stat) of the service's node
// process and of the database process are measured over BENCH_IDLE_SECONDS (default 180) of idleness, scaled to
// a minute. Writes the "Idle cost" section of BENCHMARKS.md; with BENCH_LABEL=before it only writes its figures to
// BENCH_IDLE_JSON (default /tmp/idle-before.json), which a later run shows beside its own.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { INVITATION_MAIL_QUEUE } from '../server/invitations/queue.js';
import type { WorkItem } from '../server/queue/work-queue.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { startReceiver } from '../test/webhook-receiver.js';
import { startService, until } from '../test/topology.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 20_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 180);
/** After the due e-mails and events arrived: long enough for every periodic job of a minute or less to have run. */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 90);
const LABEL = process.env.BENCH_LABEL ?? 'after';
const JSON_FILE = process.env.BENCH_IDLE_JSON ?? '/tmp/idle-before.json';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const SHOPS = 4;
const DAY = 86_400_000;
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The seed's states: how many of each, and what is due at start-up (what the settling waits for). */
const DUE_REPLY_MAILS = 20;
const DUE_CONFIRM_MAILS = 10;
const DUE_EDIT_MAILS = 10;
const PENDING_EVENTS = 30;

interface Figures {
  label: string;
  commit: string;
  reviews: number;
  idleSeconds: number;
  serviceCpuPerMinute: number;
  databaseCpuPerMinute: number;
  totalPerMinute: number;
  load: number;
  date: string;
  /** Seconds the first start of this version took on the seed (its one-time migrations); absent in older runs. */
  firstStartSeconds?: number;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields that follow it start after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS;
}

/** The database process started for this run: the FerretDB (or mongod) whose command line names our directory. */
function databasePid(dir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(dir) && /ferretdb|mongod/.test(cmdline)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no database process found for ${dir}`);
}

const token = () => randomBytes(24).toString('base64url');
const pick = <T>(n: number, items: readonly T[]) => items[n % items.length]!;

function review(id: number, now: number) {
  const shopId = (id % SHOPS) + 1;
  const created = new Date(now - ((id * 7919) % 700) * DAY - (id % 86_400) * 1000);
  const base = {
    id,
    shopId,
    name: `Reviewer ${id}`,
    email: `reviewer${id}@example.com`,
    rating: (id % 5) + 1,
    ratings: { shippingtime: (id % 5) + 1, customerservice: 0, pricequality: 4, aftersale: 0 },
    comment: `Review number ${id}: ${pick(id, ['fast delivery', 'good value', 'would buy again', 'packaging could be better'])}.`,
    language: pick(id, ['en', 'de', 'nl', 'fr']),
    country: pick(id, ['DE', 'NL', 'GB', 'FR']),
    order: `order-${id}`,
    created,
    modified: created,
    read: true,
    quarantine: false,
    is_spam: false,
    valid: true,
    deleted: false,
    published: true,
    announced: true,
    verified: true,
    emailConfirmed: false,
    source: 'invitation',
    products: [],
    reply: null as unknown,
    editToken: token(),
    editMailDue: null as Date | null,
    editMailSent: created as Date | null,
    confirmToken: null as string | null,
    confirmMailSent: null as Date | null,
    version: 1,
    pendingEvent: null as string | null,
  };
  const n = id - 1;
  // One in ten has the shop's reply (its e-mail sent long ago); the first few ask for one now.
  if (n % 10 === 3) {
    base.reply = {
      text: 'Thank you!',
      date: created,
      notify: true,
      revision: 1,
      notified: n < DUE_REPLY_MAILS * 10 ? null : created,
    };
    base.version = 2;
  }
  // Three in a hundred are pop-up reviews waiting for their writer's confirmation (its e-mail sent, mostly).
  if (n % 100 === 7) {
    const recent = new Date(now - (Math.floor(n / 100) % 20) * DAY);
    Object.assign(base, {
      source: 'popup',
      verified: false,
      quarantine: true,
      published: false,
      announced: false,
      created: recent,
      modified: recent,
      // Its edit e-mail is planned once the writer confirms.
      editToken: token(),
      editMailDue: null,
      editMailSent: null,
      confirmToken: token(),
      confirmMailSent: n < DUE_CONFIRM_MAILS * 100 ? null : recent,
    });
  }
  // Two in a hundred: pop-up reviews whose edit e-mail is still to come (a few of them due now).
  if (n % 100 === 11) {
    Object.assign(base, {
      source: 'popup',
      verified: true,
      editMailDue: n < DUE_EDIT_MAILS * 100 ? new Date(now - DAY) : new Date(now + 3 * DAY),
      editMailSent: null,
    });
  }
  if (n % 100 === 12)
    Object.assign(base, { editMailDue: new Date(now + 5 * DAY), editMailSent: null, source: 'popup' });
  // A few writes whose event was not recorded (a crash between the two writes).
  if (n % 250 === 13 && n < PENDING_EVENTS * 250)
    Object.assign(base, { pendingEvent: 'reviews.updated', version: base.version + 1 });
  return base;
}

async function seed(
  db: Db,
  receiverUrl: string,
  webhookPath: string,
): Promise<{ secret: string; expectedMails: number; expectedEvents: number }> {
  const now = Date.now();
  const created = new Date(now - 800 * DAY);
  await db.collection('webshops').insertMany(
    Array.from({ length: SHOPS }, (_, i) => ({
      id: i + 1,
      code: randomBytes(16).toString('hex'),
      name: `Idle Shop ${i + 1}`,
      url: `https://shop${i + 1}.example/`,
      host: `shop${i + 1}.example`,
      logo: '',
      address: { street: '', housenumber: '', postalcode: '', city: '', country: '' },
      languages: [{ name: 'English', url: `https://shop${i + 1}.example/`, iso: 'en', all: false, main: true }],
      hero_color: '',
      hero_image: '',
      reply_access: true,
      approved_date: null,
      partner_assurances: {},
      sidebar: {},
      require_signed_order_data: false,
      created,
      updated: created,
    })),
  );
  const secret = randomBytes(32).toString('hex');
  await db.collection('webhook_subscriptions').insertOne({
    id: 1,
    shopId: 1,
    url: `${receiverUrl}${webhookPath}`,
    topic: 'reviews.updated',
    secret,
    is_active: true,
    created,
    disabled_reason: null,
    consecutive_failures: 0,
  });
  await db.collection('counters').insertMany([
    { _id: 'webshops' as never, seq: SHOPS },
    { _id: 'reviews' as never, seq: REVIEWS },
    { _id: 'webhooks' as never, seq: 1 },
  ]);

  const reviews = Array.from({ length: REVIEWS }, (_, i) => review(i + 1, now));
  for (let i = 0; i < reviews.length; i += 1000) await db.collection('reviews').insertMany(reviews.slice(i, i + 1000));
  // What still waits for its writer has its entry in the confirmation queue, as the service writes it.
  const waiting = reviews.filter((r) => r.confirmToken);
  await db.collection('review_confirmations').insertMany(
    waiting.map((r) => ({
      _id: r.id as never,
      shopId: r.shopId,
      receipt: null,
      consentCreated: null,
      inviteDelay: 7,
      expires: new Date((r.created as Date).getTime() + 30 * DAY),
    })),
  );

  // One invitation per review, sent; and some still to be sent, days from now.
  const invitations = reviews.map((r, i) => ({
    _id: new ObjectId(),
    shopId: r.shopId,
    email: r.email,
    order: r.order,
    dedupe: `${r.email}\n${r.order}`,
    language: r.language,
    delay: 3,
    customer_name: r.name,
    products: [],
    client: null,
    platform_version: null,
    plugin_version: null,
    created: new Date((r.created as Date).getTime() - 3 * DAY),
    scheduled: r.created,
    token: token(),
    used: i % 2 ? r.created : null,
    unsubscribeToken: token(),
  }));
  const future = Array.from({ length: 200 }, (_, i) => ({
    ...invitations[i]!,
    _id: new ObjectId(),
    email: `future${i}@example.com`,
    order: `future-${i}`,
    dedupe: `future${i}@example.com\nfuture-${i}`,
    created: new Date(now),
    scheduled: new Date(now + 5 * DAY),
    used: null,
    token: token(),
    unsubscribeToken: token(),
  }));
  for (let i = 0; i < invitations.length; i += 1000)
    await db.collection('invitations').insertMany(invitations.slice(i, i + 1000));
  await db.collection('invitations').insertMany(future);
  for (let i = 0; i < invitations.length; i += 1000) {
    await db.collection('invitation_outcomes').insertMany(
      invitations.slice(i, i + 1000).map((inv) => ({
        _id: inv._id,
        status: 'sent',
        at: inv.scheduled,
        messageId: `<${inv._id.toHexString()}@idle.example>`,
        reason: null,
      })),
    );
  }
  await db.collection<WorkItem<unknown>>(INVITATION_MAIL_QUEUE).insertMany(
    future.map((inv) => ({
      _id: inv._id.toHexString(),
      due: inv.scheduled,
      attempts: 0,
      lastError: null,
      queued: inv.created,
      payload: {},
    })),
  );

  // Shop 1's webhook history: a delivery (and its log entry) per event of the last 30 days.
  const history = reviews.filter((r) => r.shopId === 1).slice(0, 5000);
  const deliveries = history.map((r, i) => {
    const at = new Date(now - (i % 30) * DAY - i * 1000);
    return {
      _id: `${r.id}:1:1`,
      eventId: `${r.id}:1`,
      subscriptionId: 1,
      shopId: 1,
      topic: 'reviews.updated',
      body: JSON.stringify({ id: r.id, name: r.name, email: r.email, rating: r.rating, comment: r.comment }),
      status: 'delivered',
      attempts: 1,
      failures: 0,
      retries: true,
      nextAttempt: at,
      created: at,
      completed: at,
    };
  });
  for (let i = 0; i < deliveries.length; i += 1000) {
    const page = deliveries.slice(i, i + 1000);
    await db.collection('webhook_deliveries').insertMany(page as never[]);
    await db.collection('webhook_attempts').insertMany(
      page.map((d) => ({
        subscriptionId: 1,
        shopId: 1,
        deliveryId: d._id,
        event_id: d.eventId,
        topic: d.topic,
        attempt: 1,
        time: d.completed,
        status: 200,
        error: null,
        duration_ms: 12,
        redelivery: false,
      })),
    );
  }
  const expectedMails = reviews.reduce((n, r) => {
    const reply = r.reply as { notify: boolean; notified: Date | null } | null;
    const editDue = r.editMailSent === null && r.editMailDue !== null && (r.editMailDue as Date).getTime() <= now;
    return (
      n +
      (reply?.notify && !reply.notified ? 1 : 0) +
      (r.confirmToken && !r.confirmMailSent ? 1 : 0) +
      (editDue ? 1 : 0)
    );
  }, 0);
  const expectedEvents = reviews.filter((r) => r.pendingEvent && r.shopId === 1).length;
  return { secret, expectedMails, expectedEvents };
}

function commitOf(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  } catch {
    return 'unknown';
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-idle-'));
  const database = await startEmbeddedDatabase(dir);
  const sink = await startSmtpSink({ light: true });
  const receiver = await startReceiver();
  const client = new MongoClient(database.uri);
  await client.connect();
  const dbName = 'bench_idle';
  const db = client.db(dbName);
  const path = '/idle';
  try {
    const t0 = performance.now();
    const { secret, expectedMails, expectedEvents } = await seed(db, receiver.url, path);
    receiver.secrets.set(path, secret);
    console.log(`seeded ${REVIEWS} reviews in ${((performance.now() - t0) / 1000).toFixed(0)} s; starting the service`);
    const launched = performance.now();
    const service = await startService({
      role: 'all',
      mongodbUri: database.uri,
      dbName,
      adminToken: ADMIN_TOKEN,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@idle.example>', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
      // The start-up migrations of a new version read the whole seed once.
      startMs: 900_000,
    });
    // The seed is stored as an older version left it: this first start runs every one-time migration on it.
    const firstStartSeconds = Math.round((performance.now() - launched) / 1000);
    console.log(`first start (the one-time migrations) took ${firstStartSeconds} s`);
    const dbPid = databasePid(dir);
    try {
      const started = performance.now();
      await until(
        () => new Set(sink.messageIds).size >= expectedMails && receiver.at(path).length >= expectedEvents,
        600_000,
        () =>
          `start-up work: ${sink.messageIds.length}/${expectedMails} e-mails, ${receiver.at(path).length}/${expectedEvents} deliveries\n${service.output().slice(-3000)}`,
      );
      console.log(
        `start-up work done in ${((performance.now() - started) / 1000).toFixed(0)} s (${expectedMails} e-mails, ${expectedEvents} deliveries); settling ${SETTLE_SECONDS} s`,
      );
      await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
      const pid = service.child.pid!;
      const before = { service: cpuSeconds(pid), database: cpuSeconds(dbPid), at: performance.now() };
      const mailsBefore = sink.messageIds.length;
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      const after = { service: cpuSeconds(pid), database: cpuSeconds(dbPid), at: performance.now() };
      const minutes = (after.at - before.at) / 60_000;
      const figures: Figures = {
        label: LABEL,
        commit: commitOf(),
        reviews: REVIEWS,
        idleSeconds: IDLE_SECONDS,
        serviceCpuPerMinute: round((after.service - before.service) / minutes),
        databaseCpuPerMinute: round((after.database - before.database) / minutes),
        totalPerMinute: round((after.service - before.service + after.database - before.database) / minutes),
        load: round(loadavg()[0]!),
        date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        firstStartSeconds,
      };
      if (sink.messageIds.length !== mailsBefore)
        console.log(`note: ${sink.messageIds.length - mailsBefore} e-mails during the idle window`);
      console.log(
        `${LABEL} (${figures.commit}): service ${figures.serviceCpuPerMinute} + database ${figures.databaseCpuPerMinute} = ` +
          `${figures.totalPerMinute} CPU s per idle minute at ${REVIEWS} reviews (load ${figures.load})`,
      );
      if (LABEL === 'before') writeFileSync(JSON_FILE, JSON.stringify(figures, null, 2));
      else if (process.env.BENCH_WRITE !== '0') writeSection(figures);
    } finally {
      await service.stop();
    }
  } finally {
    await client.close();
    await sink.close();
    await receiver.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The figures of the code before the change: from BENCH_IDLE_JSON, or as the section recorded them last time. */
function beforeFigures(): Figures | undefined {
  if (existsSync(JSON_FILE)) return JSON.parse(readFileSync(JSON_FILE, 'utf8')) as Figures;
  if (!existsSync(BENCHMARKS_FILE)) return undefined;
  const match = /<!-- idle-before (\{.*\}) -->/.exec(readFileSync(BENCHMARKS_FILE, 'utf8'));
  return match ? (JSON.parse(match[1]!) as Figures) : undefined;
}

function writeSection(after: Figures) {
  const before = beforeFigures();
  const row = (f: Figures) =>
    `| ${f.label} (${f.commit}) | ${f.serviceCpuPerMinute} | ${f.databaseCpuPerMinute} | **${f.totalPerMinute}** | ${f.load} | ${f.date} |`;
  const met = after.totalPerMinute < 1;
  const section = [
    '<!-- idle:start -->',
    '## Idle cost',
    '',
    `Command: \`npx tsx bench/idle.ts\` (the "before" row: the same script run on a checkout of the code before the`,
    'change with `BENCH_LABEL=before`). One `ROLE=all` process (with its scheduler, as `npm start` runs it) on its own',
    `embedded database (FerretDB on SQLite), seeded with ${after.reviews.toLocaleString('en')} reviews over ${SHOPS} shops (published, waiting for`,
    'confirmation, with replies, with edit e-mails still to come, a few with an e-mail due or an event not recorded),',
    "as many sent invitations and 200 still to send, and one shop's webhook with 5,000 deliveries of history. After",
    `the start-up work (due e-mails and events sent) and ${SETTLE_SECONDS} s more, CPU seconds (user + system, from`,
    `\`/proc/<pid>/stat\`) of the service's node process and of the database process over ${after.idleSeconds} s, per minute.`,
    `${cpus().length} cores; "load" is the machine's 1-minute load average at the end (other work on the machine`,
    "does not count in these processes' CPU time, but slows them a little).",
    '',
    '| code | service CPU s / idle min | database CPU s / idle min | total | load | measured |',
    '|---|---|---|---|---|---|',
    ...(before ? [row(before)] : []),
    row(after),
    '',
    `Target: under 1 CPU s per idle minute (service + database) at ${after.reviews.toLocaleString('en')} reviews: **${met ? 'met' : 'not met'}**.`,
    ...(after.firstStartSeconds === undefined
      ? []
      : [
          '',
          `First start of this version on that seed, stored as the previous version left it (every one-time migration: link`,
          `and order look-ups, the queues, review origins), until the service answered: **${after.firstStartSeconds} s**. A later`,
          'start reads only the migration markers.',
        ]),
    ...(before ? [`<!-- idle-before ${JSON.stringify(before)} -->`] : []),
    '<!-- idle:end -->',
  ].join('\n');
  replaceSection('idle', section);
  console.log(`wrote the Idle cost section of ${BENCHMARKS_FILE}`);
}

await main();
process.exit(0);
