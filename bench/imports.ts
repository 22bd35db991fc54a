// `npx tsx bench/imports.ts`: a bulk review import (issue 19) of a 100,000-row Yotpo export (4 in 5 rows store
// reviews, 1 in 5 product reviews, 1 in 50 held) through the operator API, against the service running as its own
// process (ROLE=all, as `npm start` runs it) on the embedded database. Reports: the upload with its preview (until
// the 202), the worker's run (from the 202 until the import is done), rows per second over both, and how far the
// service's resident memory rose above what it was just before the upload (sampled every 20 ms; the kernel's
// high-water mark VmHWM, reset before the upload, catches peaks between samples). Prints its figures; it does not
// write BENCHMARKS.md (the section is added by hand).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../server/db/index.js';
import { freePort, startEmbeddedDatabase } from '../server/db/embedded.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);

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

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'import-bench-'));
  const external = process.env.BENCH_MONGODB_URI;
  const embedded = external ? undefined : await startEmbeddedDatabase(dir);
  const uri = external ?? embedded!.uri;
  const dbName = `bench_import_${Date.now()}`;
  const { client, db } = await connect(uri, dbName);
  console.log(`database: ${embedded?.kind ?? 'external MongoDB'}; ${ROWS} rows`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'test',
    MONGODB_URI: uri,
    MONGODB_DB: dbName,
    PORT: String(port),
    BASE_URL: baseUrl,
    ADMIN_TOKEN,
    DATA_DIR: join(dir, 'data'),
    DEMO_SHOP: '0',
    LOG_LEVEL: 'warn',
  };
  const service = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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
      await new Promise((r) => setTimeout(r, 100));
    }
    const helper = await buildApp({ config: loadConfig(env), db, log: createLogger('silent') });
    const shop = await helper.services.webshops.create({ name: 'Bench', url: 'https://bench.example/' });
    const file = yotpoFile(ROWS);
    console.log(`file: ${round1(file.length / 1024 / 1024)} MB`);
    const pid = service.pid!;
    await new Promise((r) => setTimeout(r, 2000));
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const base = statusKb(pid, 'VmRSS');
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, statusKb(pid, 'VmRSS'))), 20);

    const started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'yotpo.csv');
    const res = await fetch(`${baseUrl}/admin/api/webshops/${shop.id}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: form,
    });
    const accepted = (await res.json()) as { id: string; preview: { to_import: number } };
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(accepted).slice(0, 300)}`);
    const uploadMs = performance.now() - started;
    let done: { status: string; imported: number; read: number; problems: unknown[] } | undefined;
    for (;;) {
      const r = await fetch(`${baseUrl}/admin/api/webshops/${shop.id}/imports/${accepted.id}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const body = (await r.json()) as typeof done & object;
      if (body.status !== 'running') {
        done = body;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const totalMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, statusKb(pid, 'VmHWM'));
    if (done.status !== 'done' || done.imported !== accepted.preview.to_import) {
      throw new Error(`import: ${JSON.stringify(done).slice(0, 400)}`);
    }
    const summary = await helper.services.reviews.publishedCounts(shop.id);
    console.log(
      [
        `upload + preview (until 202): ${Math.round(uploadMs)} ms`,
        `worker run (202 until done): ${Math.round(totalMs - uploadMs)} ms`,
        `rows/s overall: ${Math.round((ROWS / totalMs) * 1000)}; rows/s of the worker's run: ${Math.round((ROWS / (totalMs - uploadMs)) * 1000)}`,
        `imported ${done.imported} of ${done.read} rows; published store reviews now ${summary.total}`,
        `RSS before ${round1(base / 1024)} MB, peak growth +${round1((peak - base) / 1024)} MB`,
      ].join('\n'),
    );
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    await client.close();
    await embedded?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
