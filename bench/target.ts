// The process under load: the service on one port and, for comparison, a bare Koa JSON route on another.
// Started by bench/run.ts; prints one JSON line with its ports when ready.
import Koa from 'koa';
import Router from '@koa/router';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '../server/db/index.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { buildApp } from '../server/app.js';

const [uri = '', dbName = 'bench'] = process.argv.slice(2);
const config = loadConfig({
  NODE_ENV: 'test',
  ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
  // The load comes from one loopback address: the per-address and per-shop limits would measure themselves.
  RATE_LIMIT_PER_IP: '0',
  RATE_LIMIT_PER_SHOP: '0',
  MONGODB_DB: dbName,
});
const { db } = await connect(uri, dbName);
const { app } = await buildApp({ config, db, log: createLogger('warn') });

const bare = new Koa();
const router = new Router();
router.get('/bare.json', (ctx) => {
  ctx.body = { status: 'success', message: 'ok', data: { amount: 1 } };
});
bare.use(router.routes());

const listen = (callback: ReturnType<Koa['callback']>) =>
  new Promise<number>((ok) => {
    const server = createServer(callback);
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port));
  });

const servicePort = await listen(app.callback());
const barePort = await listen(bare.callback());
console.log(JSON.stringify({ servicePort, barePort }));
// A normal exit on SIGTERM/SIGINT, so that `node --cpu-prof` can write its profile.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
