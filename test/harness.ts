// Builds the real app against the real test database, listening on a loopback port.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { inject } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { testConfig } from '../server/config.js';
import { createLogger, type Logger } from '../server/log.js';
import { buildApp, type BuiltApp } from '../server/app.js';
import type { Webshop } from '../server/webshops/store.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestApp extends BuiltApp {
  url: string;
  db: Db;
  client: MongoClient;
  server: Server;
  /** fetch relative to the app's URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** fetch with the operator token. */
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  createShop(overrides?: Partial<Webshop>): Promise<Webshop>;
  close(): Promise<void>;
}

/**
 * `now`: the service's clock, for tests that move time (every store and route reads it); `log`: the logger, for tests
 * that read what is logged (test/log-capture.ts).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  { now, log }: { now?: () => Date; log?: Logger } = {},
): Promise<TestApp> {
  const client = new MongoClient(inject('mongoUri'));
  await client.connect();
  const db = client.db(`t_${randomBytes(6).toString('hex')}`);
  const config = testConfig({ BASE_URL: 'http://127.0.0.1:1', ...env });
  const built = await buildApp({ config, db, log: log ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), now });
  const server = createServer(built.app.callback());
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const doFetch = (path: string, init?: RequestInit) => fetch(url + path, init);
  return {
    ...built,
    url,
    db,
    client,
    server,
    fetch: doFetch,
    admin: (path, init = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('authorization', `Bearer ${ADMIN_TOKEN}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return doFetch(path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    createShop: async (overrides = {}) => {
      const { id: _ignored, code: _code, ...rest } = overrides;
      const shop = await built.services.webshops.create({ name: 'Test Shop', url: 'https://shop.example/', ...rest });
      return shop;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

/** `path?id=…&code=…` for a shop, plus extra query parameters. */
export function withAuth(path: string, shop: Pick<Webshop, 'id' | 'code'>, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ id: String(shop.id), code: shop.code, ...extra });
  return `${path}?${q.toString()}`;
}
