// `npx tsx bench/duplicate-text.ts` (add `--expose-gc` through NODE_OPTIONS for steadier memory figures): the
// `duplicate_text` check (server/signals/duplicate-check.ts) on the embedded database at BENCH_SIZES (default 2,000
// and 200,000) stored signatures, spread over the closed days of the 365-day window: a worker's start-up (load time,
// the table's bytes, the heap growth) and the time of one check per review (the review added to today's chunk, the
// recent chunks read again, the look-up; then, for a copy of a stored text, the exact check of the candidate). The
// issue asks for the check at the two sizes to be within 2× of each other. Prints a section for BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { BANDS, bandsOf } from '../server/signals/duplicate.js';
import { DuplicateIndex } from '../server/signals/duplicate-check.js';
import { TextBlockStore } from '../server/signals/text-store.js';
import { addDays } from '../server/time.js';

const SIZES = (process.env.BENCH_SIZES ?? '2000,200000').split(',').map(Number);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);
const COPIES = Number(process.env.BENCH_COPIES ?? 50);
const WORDS = 30;
const VOCABULARY = 20_000;
/** Seeded into the closed days (2 to 364 days old); today and yesterday start empty, as after midnight. */
const FIRST_CLOSED = 2;
const LAST_CLOSED = 364;

/** A review's text, made from its id: 30 words of a 20,000-word vocabulary (unrelated texts share no 3-shingle). */
function textOf(id: number): string {
  let seed = (id * 2654435761) >>> 0 || 1;
  const words: string[] = [];
  for (let i = 0; i < WORDS; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    words.push(`w${(seed >>> 0) % VOCABULARY}`);
  }
  return words.join(' ');
}

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

async function seed(db: Db, size: number, now: Date): Promise<void> {
  const days = LAST_CLOSED - FIRST_CLOSED + 1;
  const blocks = db.collection<{ _id: string; ids: Binary; bands: Binary }>('signal_text_days');
  let id = 1;
  for (let d = 0; d < days; d++) {
    const count = Math.floor((size * (d + 1)) / days) - Math.floor((size * d) / days);
    // The block as the worker writes it when it closes a day (duplicate-check.ts).
    const ids = Buffer.alloc(count * 4);
    const bands = Buffer.alloc(count * BANDS * 4);
    for (let i = 0; i < count; i++, id++) {
      const keys = bandsOf(textOf(id))!;
      ids.writeUInt32LE(id, i * 4);
      for (let k = 0; k < BANDS; k++) bands.writeUInt32LE(keys[k]!, (i * BANDS + k) * 4);
    }
    const _id = dayKey(addDays(now, -(FIRST_CLOSED + d)));
    await blocks.insertOne({ _id, ids: new Binary(ids), bands: new Binary(bands) });
  }
}

const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

interface Row {
  size: number;
  loadMs: number;
  tableMiB: number;
  heapMiB: number;
  checkP50: number;
  checkP95: number;
  checkMean: number;
  copyP50: number;
  found: number;
}

async function measure(db: Db, size: number): Promise<Row> {
  const now = new Date();
  await seed(db, size, now);
  const before = heap();
  const started = performance.now();
  const index = new DuplicateIndex(new TextBlockStore(db), async (id) => textOf(id));
  await index.start(now);
  const loadMs = performance.now() - started;
  const heapMiB = (heap() - before) / 2 ** 20;

  const times: number[] = [];
  let next = 10_000_000;
  for (let i = 0; i < CHECKS + 20; i++) {
    const id = next++;
    const t0 = performance.now();
    const matches = await index.check(id, textOf(id), now);
    if (i >= 20) times.push(performance.now() - t0);
    if (matches.length) throw new Error(`unexpected match for ${id}`);
  }
  const copies: number[] = [];
  let found = 0;
  for (let i = 0; i < COPIES; i++) {
    const original = 1 + ((i * 7919) % size);
    const t0 = performance.now();
    const matches = await index.check(next++, textOf(original), now);
    copies.push(performance.now() - t0);
    if (matches.some((m) => m.id === original)) found++;
  }
  times.sort((a, b) => a - b);
  copies.sort((a, b) => a - b);
  return {
    size,
    loadMs,
    tableMiB: index.memory.bytes / 2 ** 20,
    heapMiB,
    checkP50: percentile(times, 0.5),
    checkP95: percentile(times, 0.95),
    checkMean: times.reduce((a, b) => a + b, 0) / times.length,
    copyP50: percentile(copies, 0.5),
    found,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-duplicate-text-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      const db = client.db(`bench_duplicate_${size}`);
      await db.dropDatabase();
      rows.push(await measure(db, size));
      await db.dropDatabase();
      console.error(`measured ${size}`);
    }
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const f = (n: number, digits = 1) => n.toFixed(digits);
  const lines = [
    '## duplicate_text check (bench/duplicate-text.ts)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (load ${loadavg()[0]!.toFixed(1)}), embedded database; ` +
      `${CHECKS} checks of new texts and ${COPIES} of copies of stored ones per size.`,
    '',
    '| stored signatures | start-up load | table | heap growth | check p50 | check p95 | check mean | copy found: p50 | copies found |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.size.toLocaleString('en')} | ${f(r.loadMs, 0)} ms | ${f(r.tableMiB)} MiB | ${f(r.heapMiB)} MiB | ${f(r.checkP50, 2)} ms | ${f(r.checkP95, 2)} ms | ${f(r.checkMean, 2)} ms | ${f(r.copyP50, 2)} ms | ${r.found}/${COPIES} |`,
    ),
  ];
  if (rows.length >= 2) {
    const ratio = rows.at(-1)!.checkP50 / rows[0]!.checkP50;
    lines.push(
      '',
      `Check p50 at ${rows.at(-1)!.size.toLocaleString('en')} ÷ at ${rows[0]!.size.toLocaleString('en')}: ${ratio.toFixed(2)}× (the issue asks for at most 2×).`,
    );
  }
  console.log(lines.join('\n'));
}

await main();
