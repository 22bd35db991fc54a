// `npx tsx --expose-gc bench/imports.ts`: a bulk review import (issue 19) of a 100,000-row Yotpo export (4 in 5 rows
// store reviews, 1 in 5 product reviews, 1 in 50 held) on the embedded database, measuring the issue's three targets.
//
// 1. Memory, in this process (run second; `measureMemory`: sampled every 250 ms after a full collection, what the
//    import holds rather than the garbage V8 lets pile up): the file stored and previewed as the upload does it
//    (startImport), then the worker's run (drainImports), on a database of its own.
// 2. The service answering meanwhile (run first): the service as its own process (ROLE=all, as `npm start` runs it, so the import
//    runs in the process that answers the API), on a second database. Add invitation (`POST /api/1.0/invitations.json`)
//    is sent at a steady rate, open loop (one request every 1000/RATE ms whatever the answers), for BASE_SECONDS
//    without an import, then from the upload until the import is done, then BASE_SECONDS again. The same run gives the
//    rate of the import as deployed (upload through the operator API, then the worker) and the service's resident
//    memory (the kernel's high-water mark, garbage included).
//
// Writes its section of BENCHMARKS.md (`imports`). Settings: BENCH_IMPORT_ROWS (100000), BENCH_INVITATION_RATE
// (per second, 20), BENCH_BASE_SECONDS (30), BENCH_MONGODB_URI (an external database instead of the embedded one),
// BENCH_SERVICE=0 (the memory part only), BENCH_WRITE=0 (print the section without writing it).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { connect } from '../server/db/index.js';
import { freePort, startEmbeddedDatabase } from '../server/db/embedded.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { drainImports, ImportUpload, startImport } from '../server/imports/service.js';
import type { Webshop } from '../server/webshops/store.js';
import { measureMemory } from './lib.js';
import { replaceSection } from './report.js';

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const RATE = Number(process.env.BENCH_INVITATION_RATE ?? 20);
const BASE_SECONDS = Number(process.env.BENCH_BASE_SECONDS ?? 30);
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

const HEADER =
  'Review ID,Review Creation Date,Review Type,Review Status,Review Score,Review Title,Review Content,Published Image Url,Comment Content,Comment Date,Comment Public,Order ID,Order Date,Reviewer Display Name,Reviewer Email,Reviewer Type,Reviewer Country,Product ID,Product Title,Product URL,Product Image URL,Product SKU,Product UPC,Product Brand,Product MPN\r\n';

function yotpoFile(rows: number): Buffer {
  const parts = [HEADER];
  const day = Date.UTC(2022, 0, 1);
  for (let i = 0; i < rows; i++) {
    const product = i % 5 === 4;
    const date = new Date(day + i * 600_000).toISOString().replace('T', ' ').slice(0, 19);
    const status = i % 50 === 7 ? 'Unpublished' : 'Published';
    const text = `"Review number ${i}: quick delivery, well packed, ""exactly"" as described.\nWould order again from this shop."`;
    const reply = i % 10 === 0 ? `Thank you ${i}!,${date},true` : ',,';
    parts.push(
      `y${i},${date} UTC,${product ? 'product' : 'store'},${status},${1 + (i % 5)},Title ${i},${text},,${reply},O-${i},,Writer ${i},writer${i}@example.com,verified_buyer,NL,${product ? `P-${i % 300},Product ${i % 300},https://shop.example/p/${i % 300},,SKU-${i % 300},,,` : ',,,,,,,'}\r\n`,
    );
  }
  return Buffer.from(parts.join(''), 'utf8');
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const load1 = () => loadavg()[0]!.toFixed(1);

function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Latencies {
  sent: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Add invitation at RATE per second, open loop, until `until` resolves (or `seconds` pass): each request's time from
 * its sending to its answer. A late answer does not delay the next request (no coordinated omission).
 */
async function invitationsAtRate(
  baseUrl: string,
  shop: Webshop,
  label: string,
  until: Promise<unknown> | number,
): Promise<Latencies> {
  const times: number[] = [];
  let failed = 0;
  let n = 0;
  let stop = false;
  if (typeof until === 'number') void pause(until * 1000).then(() => (stop = true));
  else void until.finally(() => (stop = true));
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  while (!stop) {
    const i = n++;
    const sent = performance.now();
    inFlight.push(
      fetch(`${baseUrl}/api/1.0/invitations.json?id=${shop.id}&code=${shop.code}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=bench.${label}.${i}%40example.com&order=${label}-${i}&delay=3&customer_name=Bench`,
      }).then(
        async (res) => {
          await res.arrayBuffer();
          if (res.ok) times.push(performance.now() - sent);
          else failed++;
        },
        () => {
          failed++;
        },
      ),
    );
    // The next request at its time on the schedule, however long this one takes.
    const next = started + (n * 1000) / RATE;
    await pause(Math.max(0, next - performance.now()));
  }
  await Promise.all(inFlight);
  times.sort((a, b) => a - b);
  return { sent: n, failed, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? Number.NaN };
}

async function database(dir: string) {
  const external = process.env.BENCH_MONGODB_URI;
  const embedded = external ? undefined : await startEmbeddedDatabase(dir);
  return { uri: external ?? embedded!.uri, kind: embedded?.kind ?? 'external MongoDB', embedded };
}

function envFor(uri: string, dbName: string, port: number, dir: string) {
  return {
    NODE_ENV: 'test',
    MONGODB_URI: uri,
    MONGODB_DB: dbName,
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    ADMIN_TOKEN,
    DATA_DIR: join(dir, 'data'),
    DEMO_SHOP: '0',
    LOG_LEVEL: 'warn',
  };
}

/** Phase 1: the import in this process, its memory sampled after full collections. */
async function inProcess(uri: string, dir: string, file: Buffer) {
  const dbName = `bench_import_mem_${Date.now()}`;
  const { client, db } = await connect(uri, dbName);
  try {
    const app = await buildApp({ config: loadConfig(envFor(uri, dbName, 1, dir)), db, log: createLogger('silent') });
    const { services } = app;
    const shop = await services.webshops.create({ name: 'Bench', url: 'https://bench.example/' });
    let storedMs = 0;
    const measured = await measureMemory(async () => {
      const started = performance.now();
      const upload = new ImportUpload(services, shop.id);
      await upload.begin();
      // As the multipart parser hands it over: 64 KiB at a time.
      for (let at = 0; at < file.length; at += 65_536) await upload.add(file.subarray(at, at + 65_536));
      const result = await startImport(
        services,
        shop,
        upload,
        { fileName: 'yotpo.csv', by: { kind: 'operator' } },
        { dryRun: false, replyAuthors: [] },
      );
      if (result.dryRun) throw new Error('not a dry run');
      storedMs = performance.now() - started;
      await drainImports(services, 'bench-worker');
      const done = await services.imports.get(shop.id, result.import._id);
      if (done?.status !== 'done' || done.counts.imported !== result.import.preview.counts.imported)
        throw new Error(`import: ${JSON.stringify(done?.counts)} ${done?.error}`);
      return done.counts;
    });
    return { ...measured, storedMs, runMs: measured.ms - storedMs };
  } finally {
    await client.close();
  }
}

/** Phase 2: the service as its own process, answering Add invitation before, during and after an import. */
async function asService(uri: string, dir: string, file: Buffer) {
  const dbName = `bench_import_svc_${Date.now()}`;
  const { client, db } = await connect(uri, dbName);
  const port = await freePort();
  const env = envFor(uri, dbName, port, dir);
  const baseUrl = env.BASE_URL;
  const service = spawn(process.execPath, [...NODE_ARGS, '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (
      let i = 0;
      !(await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 600) throw new Error('the service did not start');
      await pause(100);
    }
    const helper = await buildApp({ config: loadConfig(env), db, log: createLogger('silent') });
    const shop = await helper.services.webshops.create({ name: 'Bench', url: 'https://bench.example/' });
    // Warm-up: the shop, the invitation path and their caches.
    await invitationsAtRate(baseUrl, shop, 'warm', 3);
    const before = await invitationsAtRate(baseUrl, shop, 'before', BASE_SECONDS);
    console.log(`Add invitation without an import: p50 ${round1(before.p50)} ms, p99 ${round1(before.p99)} ms`);

    const pid = service.pid!;
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const base = statusKb(pid, 'VmRSS');
    const loadStart = load1();
    const started = performance.now();
    const importing = (async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)]), 'yotpo.csv');
      const res = await fetch(`${baseUrl}/admin/api/webshops/${shop.id}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: form,
      });
      const accepted = (await res.json()) as { id: string; preview: { to_import: number } };
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(accepted).slice(0, 300)}`);
      const acceptedMs = performance.now() - started;
      for (;;) {
        const r = await fetch(`${baseUrl}/admin/api/webshops/${shop.id}/imports/${accepted.id}`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const body = (await r.json()) as { status: string; imported: number; read: number };
        if (body.status !== 'running') {
          if (body.status !== 'done' || body.imported !== accepted.preview.to_import)
            throw new Error(`import: ${JSON.stringify(body).slice(0, 400)}`);
          return { acceptedMs, doneMs: performance.now() - started, imported: body.imported };
        }
        await pause(250);
      }
    })();
    const during = await invitationsAtRate(baseUrl, shop, 'during', importing);
    const run = await importing;
    const peakKb = statusKb(pid, 'VmHWM');
    const loadEnd = load1();
    console.log(`Add invitation during the import: p50 ${round1(during.p50)} ms, p99 ${round1(during.p99)} ms`);
    const after = await invitationsAtRate(baseUrl, shop, 'after', BASE_SECONDS);
    console.log(`Add invitation after the import: p50 ${round1(after.p50)} ms, p99 ${round1(after.p99)} ms`);
    return {
      before,
      during,
      after,
      run,
      rssBaseMb: base / 1024,
      rssGrowthMb: (peakKb - base) / 1024,
      loadStart,
      loadEnd,
    };
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    await client.close();
  }
}

async function main() {
  if (!(globalThis as { gc?: unknown }).gc) console.warn('run with --expose-gc: memory figures include garbage');
  const dir = mkdtempSync(join(tmpdir(), 'import-bench-'));
  const db = await database(dir);
  const loadAtStart = load1();
  try {
    const file = yotpoFile(ROWS);
    const mb = round1(file.length / 1024 / 1024);
    console.log(`database: ${db.kind}; ${ROWS} rows, ${mb} MB; load ${loadAtStart}`);
    // BENCH_SERVICE=0: the memory part only. The service part runs first: it answers the targets the machine's
    // load affects most, and its figures are printed as soon as they are taken.
    const svc = process.env.BENCH_SERVICE === '0' ? undefined : await asService(db.uri, dir, file);
    const mem = await inProcess(db.uri, dir, file);
    const memRate = Math.round((ROWS / mem.runMs) * 1000);
    console.log(
      `in process: stored + preview ${Math.round(mem.storedMs)} ms, worker run ${Math.round(mem.runMs)} ms (${memRate} rows/s); heap +${round1(mem.heapMb)} MB, RSS +${round1(mem.rssMb)} MB after GC`,
    );
    if (!svc) return;
    const workerMs = svc.run.doneMs - svc.run.acceptedMs;
    const workerRate = Math.round((ROWS / workerMs) * 1000);
    const overallRate = Math.round((ROWS / svc.run.doneMs) * 1000);
    console.log(
      `as a service: 202 after ${Math.round(svc.run.acceptedMs)} ms, done after ${Math.round(svc.run.doneMs)} ms: ${overallRate} rows/s overall, ${workerRate} in the worker; RSS +${round1(svc.rssGrowthMb)} MB (garbage included)`,
    );
    const ratio = svc.during.p99 / svc.before.p99;
    // Two cores: a load average above 2 means other work competed with the bench.
    const busy = [loadAtStart, svc.loadStart, svc.loadEnd, load1()].some((l) => Number(l) > 2);
    const fmt = (l: Latencies) => `${l.sent} | ${round1(l.p50)} | ${round1(l.p99)} | ${round1(l.max)} | ${l.failed}`;
    const verdict = (ok: boolean) => (ok ? 'holds' : '**does not hold**');
    const section = [
      '<!-- imports:start -->',
      '## Bulk import of reviews (issue 19)',
      '',
      `Command: \`npx tsx --expose-gc bench/imports.ts\`. A ${ROWS.toLocaleString('en')}-row Yotpo export (${mb} MB; 4 in 5 rows store reviews, 1 in 5 product reviews, 1 in 50 held) on the embedded database (${db.kind}), ${cpus().length} cores. ${busy ? '**The machine was busy**' : 'A quiet machine'} (load average ${loadAtStart} at the start, ${svc.loadStart}–${svc.loadEnd} during the service's import, ${load1()} at the end)${busy ? ': the rates are lower bounds, not reference speeds' : ''}.`,
      '',
      '| target | measured | |',
      '|---|---|---|',
      `| ≥ 1,000 rows/s (the worker's run, as a service) | ${workerRate} rows/s (${overallRate} from the upload's start) | ${verdict(workerRate >= 1000)} |`,
      `| RSS growth < 200 MB | +${round1(mem.rssMb)} MB (heap +${round1(mem.heapMb)} MB) after full collections, upload to done | ${verdict(mem.rssMb < 200)} |`,
      `| Add invitation p99 during the import ≤ 2× without | ${round1(svc.during.p99)} ms vs ${round1(svc.before.p99)} ms (${round1(ratio)}×) | ${verdict(ratio <= 2)} |`,
      '',
      `In process (memory sampled every 250 ms after a full collection, which slows the run itself): file stored and previewed in ${round1(mem.storedMs / 1000)} s, the worker's run ${round1(mem.runMs / 1000)} s (${memRate} rows/s).`,
      `As a service (ROLE=all: the import runs in the process that answers the API): the upload answered 202 after ${round1(svc.run.acceptedMs / 1000)} s, the import was done ${round1(workerMs / 1000)} s later; resident memory ${round1(svc.rssBaseMb)} MB before the upload, +${round1(svc.rssGrowthMb)} MB at its high-water mark (garbage not yet collected included).`,
      '',
      `Add invitation, ${RATE} requests/s sent at a steady rate (open loop), ms from sending to the answer:`,
      '',
      '| when | requests | p50 | p99 | max | failed |',
      '|---|---|---|---|---|---|',
      `| ${BASE_SECONDS} s without an import | ${fmt(svc.before)} |`,
      `| during the import (upload to done) | ${fmt(svc.during)} |`,
      `| ${BASE_SECONDS} s after it | ${fmt(svc.after)} |`,
      '<!-- imports:end -->',
    ].join('\n');
    console.log(section);
    if (process.env.BENCH_WRITE !== '0') replaceSection('imports', section);
  } finally {
    await db.embedded?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
