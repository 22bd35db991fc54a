// `npx tsx bench/mail.ts`: invitation throughput. 5,000 due invitations are sent to a local SMTP server (the
// `smtp-server` package, in a process of its own) by the real sender (server/invitations/send.ts) over the pooled
// SMTP transport, each recorded as sent in the database. Writes the "E-mail" section of BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ObjectId } from 'mongodb';
import { connect } from '../server/db/index.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp } from '../server/app.js';
import { drainInvitations } from '../server/invitations/send.js';
import type { Invitation } from '../server/invitations/store.js';
import { INVITATION_MAIL_QUEUE } from '../server/invitations/queue.js';
import type { WorkItem } from '../server/queue/work-queue.js';
import { newLinkSecret } from '../server/links.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';

const COUNT = Number(process.env.BENCH_MAILS ?? 5000);
const TARGET = 200;

/** The SMTP server in a child process, so that it does not share the sender's event loop. */
async function startSinkProcess() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/mail.ts', '--sink'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((ok, fail) => {
    lines.once('line', (line) => ok(Number(line)));
    child.once('exit', (code) => fail(new Error(`smtp sink exited with ${code}`)));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** How many messages it received, asked over its stdin-less channel: it prints the count on SIGUSR2. */
    count: () =>
      new Promise<number>((ok) => {
        lines.once('line', (line) => ok(Number(line)));
        child.kill('SIGUSR2');
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

async function runSink(): Promise<void> {
  const sink = await startSmtpSink({ light: true });
  console.log(sink.port);
  process.on('SIGUSR2', () => console.log(sink.messageIds.length));
  process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
}

function invitation(shopId: number, n: number, due: Date): Invitation {
  return {
    shopId,
    email: `customer${n}@example.com`,
    order: `B-${n}`,
    dedupe: `customer${n}@example.com\nB-${n}`,
    language: (['nl', 'en', 'de', 'fr'] as const)[n % 4]!,
    delay: 0,
    customer_name: n % 2 ? `Customer ${n}` : '',
    products: [],
    client: null,
    platform_version: null,
    plugin_version: null,
    created: due,
    scheduled: due,
    token: newLinkSecret(),
    used: null,
    unsubscribeToken: newLinkSecret(),
  };
}

async function measure(uri: string, connections: number) {
  const sink = await startSinkProcess();
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    BASE_URL: 'https://reviews.example',
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    MAIL_CONNECTIONS: String(connections),
    ROLE: 'worker',
  });
  const { client, db } = await connect(uri, `bench_mail_${Date.now()}`);
  const { services } = await buildApp({ config, db, log: createLogger('warn') });
  const shop = await services.webshops.create({ name: 'Bench Shop', url: 'https://bench.example/' });
  const due = new Date(Date.now() - 60_000);
  // What InvitationStore.add() writes (a queue entry and the invitation), in bulk.
  for (let n = 0; n < COUNT; n += 500) {
    const ids = Array.from({ length: Math.min(500, COUNT - n) }, () => new ObjectId());
    await db
      .collection<WorkItem<unknown>>(INVITATION_MAIL_QUEUE)
      .insertMany(
        ids.map((_id) => ({ _id: _id.toHexString(), due, attempts: 0, lastError: null, queued: due, payload: {} })),
      );
    await db.collection('invitations').insertMany(ids.map((_id, i) => ({ ...invitation(shop.id, n + i, due), _id })));
  }

  const started = performance.now();
  await drainInvitations(services, { touch: async () => undefined });
  const seconds = (performance.now() - started) / 1000;
  const sent = await db.collection('invitation_outcomes').countDocuments({ status: 'sent' });
  const received = await sink.count();

  services.mailer.close();
  sink.stop();
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  return { connections, seconds, sent, received, perSecond: Math.round(sent / seconds) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mail-'));
  const embedded = process.env.MONGODB_URI ? undefined : await startEmbeddedDatabase(dir);
  const uri = process.env.MONGODB_URI ?? embedded!.uri;
  const results = [];
  for (const connections of [5, 10]) {
    const r = await measure(uri, connections);
    console.log(
      `${r.connections} connections: ${r.sent} sent, ${r.received} received in ${r.seconds.toFixed(1)} s = ${r.perSecond}/s`,
    );
    results.push(r);
  }
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (process.env.BENCH_WRITE !== '0') writeSection(results, embedded?.kind ?? 'MONGODB_URI');
}

function writeSection(
  results: { connections: number; seconds: number; sent: number; received: number; perSecond: number }[],
  database: string,
) {
  const best = results.find((r) => r.connections === 5)!;
  const section = [
    '<!-- mail:start -->',
    '## E-mail',
    '',
    `Command: \`npx tsx bench/mail.ts\` (bench/mail.ts). ${COUNT} invitations, all due, sent by the real sender`,
    '(`server/invitations/send.ts`: claim in batches of 1,000, render, send over the pooled SMTP transport, record the',
    `outcome of each) to a local \`smtp-server\` in another process. Database: ${database}. Same machine`,
    `(${cpus().length} cores, shared with other work: load average ${loadavg()[0]!.toFixed(1)} when it finished).`,
    '',
    '| MAIL_CONNECTIONS | sent and recorded | received by the SMTP server | seconds | e-mails/s |',
    '|---|---|---|---|---|',
    ...results.map(
      (r) => `| ${r.connections} | ${r.sent} | ${r.received} | ${r.seconds.toFixed(1)} | ${r.perSecond} |`,
    ),
    '',
    `Target: at least ${TARGET} e-mails per second with the default MAIL_CONNECTIONS (5): ${best.perSecond}/s, ` +
      `**${best.perSecond >= TARGET ? 'met' : 'not met'}**.`,
    '<!-- mail:end -->',
  ].join('\n');
  replaceSection('mail', section);
  console.log(`wrote the E-mail section of ${BENCHMARKS_FILE}`);
}

if (process.argv.includes('--sink')) await runSink();
else {
  await main();
  process.exit(0);
}
