// `npx tsx bench/bodies.ts`: how long the body parsers take on the worst 4 MB bodies of each kind (urlencoded,
// JSON, multipart, and Add invitation's order_data JSON string), accepted ones and ones refused by a cap, and how
// the time grows with the number of fields. In process, from the request stream to the parsed fields (as
// readFields() runs for a request); no database. Writes the "Request bodies" section of BENCHMARKS.md.

import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BODY_CAPS, readFields } from '../server/http/body.js';
import { HttpError } from '../server/http/errors.js';
import { parseOrderData } from '../server/invitations/input.js';
import { requestContext } from '../test/request-context.js';
import { worstBodies, type BodyKind } from '../test/worst-bodies.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';

const LIMIT = 4 * 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const WARM_UP = 3;
const TARGET_MS = 100;

// Each run starts on a collected heap, so that it pays for its own garbage, not for the 90 MB of bodies before it.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

interface Row {
  kind: BodyKind;
  name: string;
  bytes: number;
  outcome: string;
  median: number;
  max: number;
}

/** Parses a body as Add invitation does: readFields, and for order_data the products in it. */
async function parse(body: Buffer, contentType: string, kind: BodyKind): Promise<{ outcome: string; ms: number }> {
  // The request, its body already arrived, is made before the clock starts: only the service's work is timed.
  const ctx = requestContext(body, contentType);
  collectGarbage();
  const started = performance.now();
  let outcome = 'parsed';
  try {
    const fields = await readFields(ctx, LIMIT);
    if (kind === 'order_data') {
      const count = parseOrderData(fields.order_data).length;
      outcome = `${count} product${count === 1 ? '' : 's'}`;
    }
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    outcome = String(err.status);
  }
  return { outcome, ms: performance.now() - started };
}

async function measure(body: Buffer, contentType: string, kind: BodyKind) {
  // Warm-up: after the bodies of another kind, the first runs of one pay for the JIT's second thoughts.
  const { outcome } = await parse(body, contentType, kind);
  for (let run = 1; run < WARM_UP; run++) await parse(body, contentType, kind);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push((await parse(body, contentType, kind)).ms);
  times.sort((a, b) => a - b);
  return { outcome, median: times[times.length >> 1]!, max: times.at(-1)! };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const b of worstBodies(LIMIT)) {
    const r = await measure(b.body, b.contentType, b.kind);
    rows.push({ kind: b.kind, name: b.name, bytes: b.body.length, ...r });
    console.log(
      `${b.kind.padEnd(10)} ${b.name.padEnd(56)} ${r.outcome.padEnd(12)} median ${r.median.toFixed(1)} ms  max ${r.max.toFixed(1)} ms`,
    );
  }

  // Growth with the number of `[]` fields (400 bytes each, so that the cap fits in 4 MB): linear means the time per
  // field stays flat.
  const growth: { fields: number; median: number }[] = [];
  for (const fields of [1000, 2500, 5000, BODY_CAPS.fields - 1]) {
    const body = Buffer.from(Array.from({ length: fields }, () => `a[]=${'x'.repeat(400)}`).join('&'));
    const { median } = await measure(body, 'application/x-www-form-urlencoded', 'urlencoded');
    growth.push({ fields, median });
    console.log(
      `${fields} [] fields of 400 bytes: median ${median.toFixed(1)} ms (${((median / fields) * 1000).toFixed(1)} µs per field)`,
    );
  }
  if (process.env.BENCH_WRITE !== '0') writeSection(rows, growth);
}

function writeSection(rows: Row[], growth: { fields: number; median: number }[]) {
  const kinds: BodyKind[] = ['urlencoded', 'json', 'multipart', 'order_data'];
  const worst = kinds.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    return of.reduce((a, b) => (b.median > a.median ? b : a));
  });
  const ms = (n: number) => n.toFixed(1);
  const section = [
    '<!-- bodies:start -->',
    '## Request bodies',
    '',
    'Command: `npx tsx bench/bodies.ts` (bench/bodies.ts). The most expensive bodies of each kind up to 4 MB (the Add',
    'invitation limit), built by test/worst-bodies.ts: at the caps (10,000 fields counting nested objects, 32 levels)',
    'and past them, which are refused with 413. Timed in process from the request stream to the parsed fields, as',
    "`readFields()` runs for a request; for `order_data` (one form field holding JSON) Add invitation's product",
    'parse is included (it parses only the products, and only their first 1,000 entries). The parsers hand the',
    'event loop back after every 256 KB of their own work (urlencoded, the JSON cap scan, multipart), so no request',
    'waits for a whole parse: server/http/body.test.ts counts that on these bodies, and',
    'test/healthz-under-load.alone.test.ts posts them while it probes `/healthz` and prints how long it took to',
    `answer (6-164 ms on a quiet machine, target 200 ms). ${RUNS} runs after ${WARM_UP} to warm up, each on a collected heap; ${cpus().length} cores, shared with other work`,
    `(load average ${loadavg()[0]!.toFixed(1)} when it finished).`,
    '',
    '| kind | body | bytes | outcome | median ms | max ms |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.kind} | ${r.name} | ${r.bytes} | ${r.outcome} | ${ms(r.median)} | ${ms(r.max)} |`),
    '',
    'Time against the number of `a[]` fields (400 bytes each): a flat time per field is linear growth. Before the fix',
    'each `[]` counted the keys already there, and 20,000 such fields took 14 s.',
    '',
    '| fields | median ms | µs per field |',
    '|---|---|---|',
    ...growth.map((g) => `| ${g.fields} | ${ms(g.median)} | ${((g.median / g.fields) * 1000).toFixed(1)} |`),
    '',
    '| target | worst body (median) | verdict |',
    '|---|---|---|',
    ...worst.map(
      (w) =>
        `| ${w.kind}: under ${TARGET_MS} ms | ${w.name}: ${ms(w.median)} ms | **${w.median < TARGET_MS ? 'met' : 'not met'}** |`,
    ),
    '<!-- bodies:end -->',
  ].join('\n');
  replaceSection('bodies', section);
  console.log(`wrote the Request bodies section of ${BENCHMARKS_FILE}`);
}

await main();
process.exit(0);
