// `npx tsx bench/dashboard-accounts.ts`: what every dashboard request adds (the session, its user, the role) and
// the accounts' own calls, on the embedded database (FerretDB on SQLite, as `npm start` runs it), with 20,000
// reviews, BENCH_USERS (default 2,000) users in 200 shops and 10 sessions each (20,000 sessions). The seed is
// written straight into the collections in the shape the stores write. Each call is made BENCH_RUNS (default 100)
// times, one at a time, over HTTP on loopback: as the first request of a session in the process (its session and
// user read from the database) and as the requests after it (from the process's cache). Writes the "Dashboard
// accounts" section of BENCHMARKS.md.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedDatabase } from '../server/db/embedded.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp } from '../server/app.js';
import { createSignInLink } from '../server/accounts/service.js';
import { replaceSection } from './report.js';

const USERS = Number(process.env.BENCH_USERS ?? 2000);
const SESSIONS_PER_USER = 10;
const SHOPS = 200;
const REVIEWS = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DAY = 86_400_000;

const digest = (s: string) => createHash('sha256').update(s).digest('hex');
const secretOf = (user: number, n: number) =>
  Buffer.from(`bench-session-${user}-${n}`.padEnd(32, '.')).toString('base64url').slice(0, 43);

async function seed(db: Db): Promise<void> {
  const now = new Date();
  await db.collection('webshops').insertMany(
    Array.from({ length: SHOPS }, (_, i) => ({
      id: i + 1,
      code: `code${i + 1}`.padEnd(32, '0'),
      name: `Shop ${i + 1}`,
      url: `https://shop${i + 1}.example/`,
      host: `shop${i + 1}.example`,
      logo: '',
      address: { street: '', housenumber: '', postalcode: '', city: '', country: '' },
      languages: [],
      hero_color: '',
      hero_image: '',
      reply_access: true,
      approved_date: null,
      partner_assurances: {},
      sidebar: {},
      created: now,
      updated: now,
    })),
  );

  for (let from = 1; from <= REVIEWS; from += 1000) {
    await db.collection('reviews').insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        _id: from + i,
        id: from + i,
        shopId: 1 + ((from + i) % SHOPS),
        rating: 1 + (i % 5),
        comment: `Review ${from + i}`,
        created: now,
        modified: now,
        published: true,
        deleted: false,
        version: 1,
      })) as never[],
    );
  }
  const roles = ['owner', 'manager', 'support'];
  const users = Array.from({ length: USERS }, (_, i) => {
    const id = i + 1;
    return {
      _id: String(id),
      id,
      email: `user${id}@bench.example`,
      roles: { [String(1 + (i % SHOPS))]: roles[i % 3] },
      created: now,
      lastSignIn: now,
    };
  });
  await db.collection('dashboard_users').insertMany(users as never[]);
  await db
    .collection('dashboard_user_addresses')
    .insertMany(users.map((u) => ({ _id: u.email, userId: u.id })) as never[]);
  const teams = new Map<number, Record<string, { at: Date; by: { kind: string } }>>();
  for (const u of users) {
    const shop = Number(Object.keys(u.roles)[0]);
    teams.set(shop, { ...(teams.get(shop) ?? {}), [String(u.id)]: { at: now, by: { kind: 'operator' } } });
  }
  await db
    .collection('dashboard_teams')
    .insertMany([...teams].map(([id, members]) => ({ _id: String(id), users: members })) as never[]);
  for (let from = 0; from < USERS; from += 200) {
    const sessions = [];
    const lists = [];
    for (let u = from + 1; u <= Math.min(USERS, from + 200); u++) {
      const list: Record<string, { digest: string; created: Date }> = {};
      for (let n = 0; n < SESSIONS_PER_USER; n++) {
        const id = randomBytes(9).toString('base64url');
        const d = digest(secretOf(u, n));
        list[id] = { digest: d, created: now };
        sessions.push({
          _id: d,
          id,
          userId: u,
          csrf: `csrf-${u}-${n}`,
          userAgent: 'bench',
          created: now,
          lastSeen: new Date(now.getTime() - 2 * DAY),
          expires: new Date(now.getTime() + 28 * DAY),
          absoluteExpires: new Date(now.getTime() + 80 * DAY),
        });
      }
      lists.push({ _id: String(u), sessions: list });
    }
    await db.collection('dashboard_sessions').insertMany(sessions as never[]);
    await db.collection('dashboard_user_sessions').insertMany(lists as never[]);
  }
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-accounts-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const db = client.db('bench_accounts');
  const rows: { what: string; p50: number; p95: number; runs: number }[] = [];
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
      RATE_LIMIT_PER_IP: '0',
      TRUST_PROXY: '1',
      MONGODB_URI: database.uri,
      BASE_URL: 'http://127.0.0.1:1',
      SMTP_URL: 'smtp://127.0.0.1:9',
    });
    // Built on the empty database, so the start-up migrations (which read every review) are done before the seed.
    const built = await buildApp({ config, db, log: createLogger('silent') });
    const t0 = performance.now();
    await seed(db);
    console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const server = createServer(built.app.callback());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const measure = async (what: string, call: (i: number) => Promise<Response>, expected: number) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const res = await call(i);
        await res.arrayBuffer();
        times.push(performance.now() - started);
        if (res.status !== expected) throw new Error(`${what}: ${res.status}`);
      }
      rows.push({ what, p50: percentile(times, 50), p95: percentile(times, 95), runs: RUNS });
      console.log(`${what}: p50 ${ms(percentile(times, 50))} ms, p95 ${ms(percentile(times, 95))} ms`);
    };
    // Users 1, 4, 7, … are owners (of shops 1, 4, 7, …); each call is another user's session, so no cache helps.
    const owner = (i: number) => 1 + 3 * (i % Math.floor(USERS / 3));
    const cookie = (user: number) => ({ cookie: `session=${secretOf(user, 0)}` });
    const shopOf = (user: number) => 1 + ((user - 1) % SHOPS);

    await measure(
      'GET /dashboard/api/me, first request of a session (session, user read)',
      (i) => fetch(`${base}/dashboard/api/me`, { headers: cookie(owner(i)) }),
      200,
    );
    await measure(
      'GET /dashboard/api/me, next requests (cached)',
      () => fetch(`${base}/dashboard/api/me`, { headers: cookie(owner(0)) }),
      200,
    );
    await measure(
      'GET /dashboard/api/sessions (10 sessions)',
      (i) => fetch(`${base}/dashboard/api/sessions`, { headers: cookie(owner(i)) }),
      200,
    );
    await measure(
      `GET …/shops/:id/users (team of ${USERS / SHOPS})`,
      (i) => fetch(`${base}/dashboard/api/shops/${shopOf(owner(i))}/users`, { headers: cookie(owner(i)) }),
      200,
    );
    await measure(
      'GET …/shops/:id/users of a shop not theirs (404)',
      (i) => fetch(`${base}/dashboard/api/shops/${shopOf(owner(i)) + 1}/users`, { headers: cookie(owner(i)) }),
      404,
    );
    await measure(
      'POST /dashboard/api/sign-in-link (known address)',
      (i) =>
        fetch(`${base}/dashboard/api/sign-in-link`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${1 + (i % 200)}` },
          body: JSON.stringify({ email: `user${1 + (i % USERS)}@bench.example` }),
        }),
      202,
    );
    const links = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => createSignInLink(built.services, 2 + 3 * i)),
    );
    await measure(
      'POST /dashboard/sign-in (link used, session made)',
      (i) =>
        fetch(`${base}/dashboard/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${links[i]!.split('/').pop()}`,
        }),
      303,
    );
    const c0 = performance.now();
    await built.services.sessions.deleteEnded(new Date());
    const cleanup = performance.now() - c0;
    console.log(`clean-up scan of ${USERS * SESSIONS_PER_USER + RUNS} sessions: ${ms(cleanup)} ms`);

    built.services.mailer.close();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));

    const table = rows.map((r) => `| ${r.what} | ${ms(r.p50)} | ${ms(r.p95)} | ${r.runs} |`).join('\n');
    replaceSection(
      'dashboard-accounts',
      [
        '<!-- dashboard-accounts:start -->',
        '## Dashboard accounts',
        '',
        `\`npx tsx bench/dashboard-accounts.ts\`, embedded FerretDB on SQLite, ${REVIEWS.toLocaleString('en')} reviews, ${USERS.toLocaleString('en')} users in ${SHOPS} shops with ${SESSIONS_PER_USER} sessions each, one request at a time over loopback; ${cpus().length} cores shared with other work (load ${loadavg()[0]!.toFixed(1)}). Every look-up on the request path is by \`_id\` and none touches the reviews; the first row is a session's first request in the process after an hour unused: its session and user are read and its use is recorded, an update that on FerretDB costs more as the collection grows (Embedded database limits) and is most of that time. The requests after it are served from the process's cache (CACHE_TTL_MS) and write nothing for an hour. Users, teams and session lists are keyed by string \`_id\`s: with numeric ones the team row took 1.9 s. On MongoDB each is an index look-up.`,
        '',
        '| call | p50 ms | p95 ms | runs |',
        '|---|---|---|---|',
        table,
        '',
        `The hourly clean-up (a scan of the sessions for ended ones) took ${ms(cleanup)} ms over ${(USERS * SESSIONS_PER_USER + RUNS).toLocaleString('en')} sessions.`,
        '<!-- dashboard-accounts:end -->',
      ].join('\n'),
    );
  } finally {
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
