// `npx tsx bench/topology.ts`: one `ROLE=all` process against two `ROLE=api` processes and one `ROLE=worker`, on
// the embedded database, each a real process as an operator starts it (test/topology.ts), with a real SMTP server
// and a real webhook receiver. For each topology:
// - e-mail: BENCH_INVITATIONS (default 500) invitations due at once, posted over the API processes by ten
//   clients; e-mails per second from the first request to the last e-mail, and how long after the last request
//   the last e-mail arrived;
// - webhooks: BENCH_IMPORTS (default 100) review imports, one client with a 20 ms pause between them (as a shop's
//   reviews come in); latency from sending the import to the receiver holding the signed delivery.
// BENCH_ROUNDS (default 3) rounds, the topologies taking turns. Writes the "Topologies" section of BENCHMARKS.md.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { testConfig } from '../server/config.js';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';
import { pushEnv, startService, until, type Role, type ServiceProcess } from '../test/topology.js';
import { freePort } from '../server/db/embedded.js';
import { BENCHMARKS_FILE, replaceSection } from './report.js';

const INVITATIONS = Number(process.env.BENCH_INVITATIONS ?? 500);
const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = 10;
/** Invitations (and half as many imports) sent before measuring, for connections, JIT and the worker's first runs. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const VERBOSE = process.env.BENCH_VERBOSE === '1';
/** SCHEDULER_POLL_MS for every process (default: the service's default). */
const POLL_MS = process.env.BENCH_POLL_MS;
/** NODE_OPTIONS for every service process, e.g. `--import ./profiler.mjs` (Node refuses `--cpu-prof` there). */
const NODE_OPTIONS = process.env.BENCH_NODE_OPTIONS;

interface Topology {
  name: string;
  roles: Role[];
  /** Whether the API processes push their wake-ups to the worker (WORKER_WAKE_URL) or leave markers only. */
  push: boolean;
}

const TOPOLOGIES: Topology[] = [
  { name: '1 × ROLE=all', roles: ['all'], push: false },
  { name: '2 × ROLE=api + 1 × ROLE=worker', roles: ['api', 'api', 'worker'], push: true },
  // BENCH_MARKERS=1: also the split without pushes, as it ran before WORKER_WAKE_URL (and runs without it).
  ...(process.env.BENCH_MARKERS === '1'
    ? [{ name: '2 × ROLE=api + 1 × ROLE=worker, markers only', roles: ['api', 'api', 'worker'] as Role[], push: false }]
    : []),
];

interface Result {
  topology: string;
  /** Seconds from the first invitation request to the last one answered, and to the last e-mail received. */
  postSeconds: number;
  mailSeconds: number;
  mailsPerSecond: number;
  /** From the last invitation request's answer to the last e-mail (s). */
  tailSeconds: number;
  duplicateMails: number;
  /** Import → delivery latency (ms, sorted). */
  latencies: number[];
  duplicateEvents: number;
  /** CPU seconds used during the e-mail part: the database server, each service process, the benchmark. */
  mailCpu: { database: number; services: number[]; bench: number };
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The database server's process (its command line names the benchmark's directory). */
function databasePid(dir: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir) && Number(entry) !== process.pid)
        return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function measure(
  topology: Topology,
  mongodbUri: string,
  sink: SmtpSink,
  receiver: Receiver,
  dbPid: number | undefined,
): Promise<Result> {
  const dbName = `bench_topology_${Date.now()}`;
  const env = {
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@bench.example>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...(POLL_MS ? { SCHEDULER_POLL_MS: POLL_MS } : {}),
    ...(NODE_OPTIONS ? { NODE_OPTIONS } : {}),
  };
  const workerPort = await freePort();
  const start = (role: Role) =>
    startService({
      role,
      mongodbUri,
      dbName,
      adminToken: ADMIN_TOKEN,
      env: { ...env, ...(topology.push ? pushEnv(role, workerPort) : {}) },
    });
  const services: ServiceProcess[] = [];
  const client = new MongoClient(mongodbUri);
  await client.connect();
  const db = client.db(dbName);
  try {
    // The first process creates the indexes, the others find them in place.
    services.push(await start(topology.roles[0]!));
    services.push(...(await Promise.all(topology.roles.slice(1).map(start))));
    const apis = services.filter((s) => s.url).map((s) => s.url!);
    const admin = (api: string, path: string, body: unknown) =>
      fetch(api + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const shop = (await (
      await admin(apis[0]!, '/admin/api/webshops', { name: 'Bench Shop', url: 'https://bench.example/' })
    ).json()) as {
      id: number;
      code: string;
    };
    const query = `id=${shop.id}&code=${encodeURIComponent(shop.code)}`;
    const path = `/${dbName}`;
    const subscribed = (await (
      await fetch(`${apis[0]}/api/1.0/webhook.json?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}${path}`, topic: 'reviews.created' }),
      })
    ).json()) as { data: { secret: string } };
    receiver.secrets.set(path, subscribed.data.secret);
    // Warm-up (connections, JIT, the worker's first runs): a few of each, not measured.
    await post(apis, INVITATIONS, WARM_UP, query, 'warm');
    await until(
      () => sink.messageIds.length >= WARM_UP,
      60_000,
      () => `warm-up e-mails: ${sink.messageIds.length}`,
    );
    for (let i = 0; i < WARM_UP / 2; i++)
      await admin(apis[i % apis.length]!, `/admin/api/webshops/${shop.id}/reviews`, {
        name: 'warm',
        email: 'w@example.com',
        rating: 5,
      });
    await until(
      () => receiver.at(path).length >= WARM_UP / 2,
      60_000,
      () => `warm-up deliveries: ${receiver.at(path).length}`,
    );
    sink.messageIds.length = 0;

    // E-mail.
    const cpu = () => ({
      database: cpuSeconds(dbPid),
      service: services.map((s) => cpuSeconds(s.child.pid)),
      bench: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
    });
    const cpuBefore = cpu();
    const started = performance.now();
    const progress = VERBOSE
      ? setInterval(
          () =>
            console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s: ${sink.messageIds.length} e-mails`),
          1000,
        )
      : undefined;
    await post(apis, 0, INVITATIONS, query, 'bench');
    const posted = performance.now();
    const logs = () => services.map((s) => `--- ${s.role}\n${s.output().slice(-5000)}`).join('\n');
    await until(
      () => new Set(sink.messageIds).size >= INVITATIONS,
      300_000,
      () => `${sink.messageIds.length} e-mails\n${logs()}`,
    );
    const mailed = performance.now();
    const cpuAfter = cpu();
    clearInterval(progress);
    // Late copies would show up here.
    await new Promise((r) => setTimeout(r, 1000));
    const duplicateMails = sink.messageIds.length - new Set(sink.messageIds).size;

    // Webhooks: paced imports, each timed from its request to its delivery.
    const sent = new Map<string, number>();
    for (let i = 0; i < IMPORTS; i++) {
      const name = `Reviewer ${i}`;
      sent.set(name, performance.now() + performance.timeOrigin);
      const res = await admin(apis[i % apis.length]!, `/admin/api/webshops/${shop.id}/reviews`, {
        name,
        email: `r${i}@example.com`,
        rating: 5,
      });
      if (res.status !== 201) throw new Error(`import answered ${res.status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const arrivals = () => receiver.at(path).filter((r) => sent.has(JSON.parse(r.raw).name));
    await until(
      () => new Set(arrivals().map((r) => r.eventId)).size >= IMPORTS,
      120_000,
      () => `${arrivals().length} deliveries\n${logs()}`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const first = new Map<string, number>();
    for (const r of arrivals())
      if (!first.has(r.eventId!)) first.set(r.eventId!, r.at - sent.get(JSON.parse(r.raw).name)!);
    if (VERBOSE) console.log(logs());
    return {
      topology: topology.name,
      postSeconds: (posted - started) / 1000,
      mailSeconds: (mailed - started) / 1000,
      mailsPerSecond: Math.round(INVITATIONS / ((mailed - started) / 1000)),
      tailSeconds: (mailed - posted) / 1000,
      duplicateMails,
      latencies: [...first.values()].map(Math.round).sort((a, b) => a - b),
      duplicateEvents: arrivals().length - first.size,
      mailCpu: {
        database: cpuAfter.database - cpuBefore.database,
        services: cpuAfter.service.map((c, i) => c - cpuBefore.service[i]!),
        bench: cpuAfter.bench - cpuBefore.bench,
      },
    };
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

/** Posts invitations `from`…`from + count - 1`, round-robin over the API processes, ten clients at a time. */
async function post(apis: string[], from: number, count: number, query: string, tag: string): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < from + count) {
        const n = next++;
        const res = await fetch(`${apis[n % apis.length]}/api/1.0/invitations.json?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            email: `${tag}${n}@example.com`,
            order: `${tag}-${n}`,
            delay: '0',
            language: 'en',
          }),
        });
        const body = (await res.json()) as { message?: string };
        if (!body.message?.startsWith('Invitation successfully'))
          throw new Error(`invitation answered ${JSON.stringify(body)}`);
      }
    }),
  );
}

function print(r: Result, round: number) {
  const l = r.latencies;
  console.log(
    `round ${round}: ${r.topology.padEnd(32)} ${INVITATIONS} e-mails in ${r.mailSeconds.toFixed(1)} s = ${r.mailsPerSecond}/s ` +
      `(posted in ${r.postSeconds.toFixed(1)} s, last e-mail ${r.tailSeconds.toFixed(1)} s after the last request, ${r.duplicateMails} duplicates); ` +
      `review → webhook p50 ${percentile(l, 50)} ms, p95 ${percentile(l, 95)} ms, max ${l.at(-1)} ms (${r.duplicateEvents} duplicates); ` +
      `CPU s for the e-mails: database ${r.mailCpu.database.toFixed(1)}, services ${r.mailCpu.services.map((c) => c.toFixed(1)).join(' + ')}, benchmark ${r.mailCpu.bench.toFixed(1)}`,
  );
}

/** The rounds of one topology, summed up: medians of the rates, latencies of all rounds together. */
interface Summary {
  topology: string;
  mailsPerSecond: number;
  rounds: number[];
  postSeconds: number;
  tailSeconds: number;
  duplicateMails: number;
  latencies: number[];
  duplicateEvents: number;
  /** Medians of the CPU seconds during the e-mails: the database server, the service processes together. */
  databaseCpu: number;
  servicesCpu: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function summarize(results: Result[]): Summary {
  return {
    topology: results[0]!.topology,
    mailsPerSecond: median(results.map((r) => r.mailsPerSecond)),
    rounds: results.map((r) => r.mailsPerSecond),
    postSeconds: median(results.map((r) => r.postSeconds)),
    tailSeconds: median(results.map((r) => r.tailSeconds)),
    duplicateMails: results.reduce((n, r) => n + r.duplicateMails, 0),
    latencies: results.flatMap((r) => r.latencies).sort((a, b) => a - b),
    duplicateEvents: results.reduce((n, r) => n + r.duplicateEvents, 0),
    databaseCpu: median(results.map((r) => r.mailCpu.database)),
    servicesCpu: median(results.map((r) => r.mailCpu.services.reduce((a, b) => a + b, 0))),
  };
}

function writeSection(summaries: Summary[], database: string, loadAtStart: number) {
  const defaults = testConfig();
  const [single, split] = summaries as [Summary, Summary];
  const fast = split.mailsPerSecond >= single.mailsPerSecond;
  const rows = summaries.map((r) => {
    const l = r.latencies;
    return (
      `| ${r.topology} | ${r.mailsPerSecond} (${r.rounds.join(', ')}) | ${r.postSeconds.toFixed(1)} | ${r.tailSeconds.toFixed(1)} | ` +
      `${r.duplicateMails} | ${r.databaseCpu.toFixed(1)} / ${r.servicesCpu.toFixed(1)} | ${percentile(l, 50)} | ${percentile(l, 95)} | ${l.at(-1)} | ${r.duplicateEvents} |`
    );
  });
  const section = [
    '<!-- topology:start -->',
    '## Topologies: one process, or API processes and a worker',
    '',
    'Command: `npx tsx bench/topology.ts`. Each topology runs as real processes (`server/main.ts`) on one database,',
    "with a real SMTP server and webhook receiver (in the benchmark's process). E-mail: " +
      `${INVITATIONS} invitations due at once, posted by ${CLIENTS} clients round-robin over the API processes; e-mails per`,
    `second from the first request to the last e-mail. Webhooks: ${IMPORTS} review imports from one client, 20 ms apart,`,
    'round-robin; latency from sending the import to the receiver holding the signed delivery. Default settings',
    `(\`SCHEDULER_POLL_MS=${POLL_MS ?? defaults.scheduler.pollMs}\`, \`MAIL_CONNECTIONS=${defaults.mail.connections}\`); the split's API processes push their wake-ups to`,
    `the worker (\`WORKER_PORT\`, \`WORKER_WAKE_URL\`). Warm-up: ${WARM_UP} invitations and ${WARM_UP / 2} imports. ${ROUNDS} rounds, the topologies taking turns;`,
    'the medians of the rounds, the latencies of all rounds together. CPU: seconds used during the e-mail part.',
    `Database: ${database}. ${cpus().length} cores shared by every process; ` +
      (loadAtStart >= 0.5
        ? `**the machine was shared**: other work was running (load average ${loadAtStart.toFixed(1)} before the run, ${loadavg()[0]!.toFixed(1)} at the end).`
        : `quiet before the run (load average ${loadAtStart.toFixed(1)}; ${loadavg()[0]!.toFixed(1)} at the end).`),
    '',
    '| topology | e-mails/s, median (rounds) | requests took s | last e-mail after the last request, s | duplicate e-mails | CPU s: database / service processes | webhook p50 ms | p95 ms | max ms | duplicate deliveries |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Target: the split topology at least as fast as one process. E-mails per second: ' +
      `${split.mailsPerSecond}/s against ${single.mailsPerSecond}/s, **${fast ? 'met' : 'not met'}**. Webhook latency: ` +
      `p50 ${percentile(split.latencies, 50)} ms against ${percentile(single.latencies, 50)} ms, ` +
      `**${percentile(split.latencies, 50) <= percentile(single.latencies, 50) ? 'met' : 'not met'}**.`,
    '',
    'E-mail throughput is set by how fast the API processes accept invitations; the worker keeps up (the last',
    'e-mail follows the last request within a second). Both topologies use all of both cores while the invitations',
    'arrive; the split spends more CPU on the same work (the CPU column): two API processes each group their inserts',
    'only with their own concurrent requests, so they make more and smaller writes than one process, and three Node',
    'processes share the cores with the database and the clients. A review written through an API-only process',
    "queues its event, then the process pushes the event's id to the worker, which reads it by `_id` and sends it at",
    'once, as one process sends the review it just wrote; before the push, the worker found it at its next read of the',
    'wake-up markers (every `SCHEDULER_POLL_MS`) and searched the event queue and `webhook_due` for it.',
    '',
    "Add invitation also moves the shop's change counter that the dashboard's invitation lists compare",
    '(`invitation_versions`). Each process writes it at most every 250 ms (`server/db/counted-steps.ts`): written once',
    'per group of invitations instead, this bench measured 154/s for one process and 117/s for the split (2026-11-26,',
    'the same machine, 3 rounds each), against 196/s and 141/s with no counter at all.',
    '<!-- topology:end -->',
  ].join('\n');
  replaceSection('topology', section);
  console.log(`wrote the Topologies section of ${BENCHMARKS_FILE}`);
}

async function main() {
  const loadAtStart = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'bench-topology-'));
  const external = process.env.BENCH_MONGODB_URI;
  const embedded = external ? undefined : await startEmbeddedDatabase(dir);
  const uri = external ?? embedded!.uri;
  const sink = await startSmtpSink({ light: true });
  const receiver = await startReceiver();
  const dbPid = embedded ? databasePid(dir) : undefined;
  try {
    const only = process.env.BENCH_TOPOLOGY;
    const topologies = TOPOLOGIES.filter((t) => !only || t.name.includes(only));
    const results = new Map<Topology, Result[]>(topologies.map((t) => [t, []]));
    // Taking turns, so that the other work on the machine weighs on both alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const topology of topologies) {
        sink.messageIds.length = 0;
        const result = await measure(topology, uri, sink, receiver, dbPid);
        print(result, round);
        results.get(topology)!.push(result);
      }
    }
    const summaries = [...results.values()].map(summarize);
    if (summaries.length === TOPOLOGIES.length && process.env.BENCH_WRITE !== '0')
      writeSection(summaries, embedded?.kind ?? 'external MongoDB', loadAtStart);
  } finally {
    await sink.close();
    await receiver.close();
    await embedded?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
