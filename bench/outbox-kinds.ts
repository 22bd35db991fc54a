// `npx tsx bench/outbox-kinds.ts`: the evidence for issue 18's open question "one outbox = one collection?". A
// sign-in link is queued and taken by the drain (server/queue/work-queue.ts: enqueue, take, finish) while
// BENCH_BACKLOGS (default 0, 2,000 and 20,000) invitation e-mails wait in the queue, due days later (a shop's
// `delay`): once in a collection of their own (today: `invitation_mail` apart from `mail_outbox`) and once in the
// same collection (one outbox for every e-mail). BENCH_REPEATS (default 30) sign-in links each. Writes the
// "Outbox kinds" section of BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { WorkQueue } from '../server/queue/work-queue.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';

const BACKLOGS = (process.env.BENCH_BACKLOGS ?? '0,2000,20000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
const DAY = 86_400_000;

interface Mail {
  kind: string;
  to: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** A sign-in link from enqueue to finished, REPEATS times; the sorted times in ms. */
async function signInLinks(outbox: WorkQueue<Mail>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await outbox.enqueue(`sign-in:${i}:${Date.now()}`, { kind: 'sign_in', to: `owner${i}@shop.example` });
    const taken = await outbox.take('bench-drain', 50, 60_000);
    if (taken.length !== 1) throw new Error(`took ${taken.length} items`);
    await outbox.finish('bench-drain', taken[0]!._id);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function fill(queue: WorkQueue<Mail>, count: number): Promise<void> {
  const due = new Date(Date.now() + 3 * DAY);
  for (let n = 0; n < count; n += 1000) {
    await Promise.all(
      Array.from({ length: Math.min(1000, count - n) }, (_, i) =>
        queue.enqueue(`invitation:${n + i}`, { kind: 'invitation', to: `customer${n + i}@example.com` }, due),
      ),
    );
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-outbox-kinds-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const rows: { backlog: number; apart: number[]; together: number[] }[] = [];
  try {
    for (const backlog of BACKLOGS) {
      const db = client.db(`bench_outbox_kinds_${backlog}`);
      const invitations = new WorkQueue<Mail>(db, 'invitation_mail');
      const apart = new WorkQueue<Mail>(db, 'mail_outbox');
      const together = new WorkQueue<Mail>(db, 'one_outbox');
      for (const q of [invitations, apart, together]) await q.ensureIndexes();
      await fill(invitations, backlog);
      await fill(together, backlog);
      const row = { backlog, apart: await signInLinks(apart), together: await signInLinks(together) };
      rows.push(row);
      console.log(
        `${backlog} invitations waiting: sign-in link p50 ${percentile(row.apart, 50).toFixed(1)} ms apart, ${percentile(row.together, 50).toFixed(1)} ms together`,
      );
      await db.dropDatabase();
    }
    if (process.env.BENCH_WRITE !== '0') writeSection(rows, database.kind);
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeSection(rows: { backlog: number; apart: number[]; together: number[] }[], kind: string) {
  const ms = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1));
  const cell = (t: number[]) => `${ms(percentile(t, 50))} / ${ms(percentile(t, 95))}`;
  const section = [
    '<!-- outbox-kinds:start -->',
    '## Outbox kinds: one collection or one per kind',
    '',
    `Command: \`npx tsx bench/outbox-kinds.ts\`. The embedded database as the service starts it (${kind}). A sign-in`,
    `link queued, taken and finished through the work-queue primitive, ${REPEATS} times, while invitation e-mails wait`,
    'for their due time three days later: in their own collection (as the service keeps them) or in the same one.',
    `${cpus().length} cores shared with everything else on the machine (load average ${loadavg()[0]!.toFixed(1)} at the end).`,
    '',
    '| invitations waiting | sign-in link, own collection: p50 / p95 ms | same collection: p50 / p95 ms |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.backlog.toLocaleString('en')} | ${cell(r.apart)} | ${cell(r.together)} |`),
    '',
    "FerretDB 1.24 reads every document of a collection for the drain's one query that is not by `_id` (what is due),",
    'so in one shared collection every e-mail waits behind the scan of every invitation scheduled for later. This is',
    'why each kind of e-mail keeps its own small collection (docs/decisions/queue.md). On MongoDB the `due` index',
    'answers either way.',
    '<!-- outbox-kinds:end -->',
  ].join('\n');
  replaceSection('outbox-kinds', section);
  console.log(`wrote the Outbox kinds section of ${BENCHMARKS_FILE}`);
}

await main();
process.exit(0);
