// The service's entry point: read the configuration, start (or connect to) the database, build the app, listen,
// and shut down cleanly on SIGTERM/SIGINT.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { connect } from './db/index.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded.js';
import { createLogger } from './log.js';
import { buildApp } from './app.js';
import { DEMO_OWNER_EMAIL, startDemo } from './accounts/demo.js';
import { warmDashboardViews } from './dashboard/warm-up.js';

/** In development an operator token is generated once and kept under DATA_DIR. */
function developmentAdminToken(config: Config): { token: string; created: boolean } {
  const file = join(config.dataDir, 'admin-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), created: false };
  mkdirSync(config.dataDir, { recursive: true });
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, created: true };
}

async function listen(config: Config, callback: Parameters<typeof createHttpServer>[1]): Promise<Server> {
  const server: Server = config.tls
    ? createHttpsServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, callback)
    : createHttpServer(callback);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, ok);
  });
  return server;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  for (const warning of config.warnings) log.warn(warning);
  let adminTokenNote = '';
  if (!config.adminToken) {
    const { token, created } = developmentAdminToken(config);
    config = { ...config, adminToken: token };
    adminTokenNote = created
      ? `generated, stored in ${join(config.dataDir, 'admin-token')}`
      : 'from DATA_DIR/admin-token';
  }

  let embedded: EmbeddedDatabase | undefined;
  let uri = config.mongodbUri;
  if (!uri) {
    embedded = await startEmbeddedDatabase(config.dataDir);
    uri = embedded.uri;
    log.info({ database: embedded.kind, dataDir: config.dataDir }, 'started embedded database');
  }
  const { client, db } = await connect(uri, config.mongodbDb);
  const { app, services } = await buildApp({ config, db, log });

  const demo =
    !config.production && config.demoShop ? await startDemo(services, { link: config.role !== 'worker' }) : null;
  if (demo?.created) {
    const shop = demo.created;
    const base = config.baseUrl;
    console.log(
      [
        '',
        'Created a demo webshop:',
        `  id:          ${shop.id}`,
        `  API code:    ${shop.code}`,
        `  admin token: ${config.adminToken} (${adminTokenNote})`,
        'Try:',
        `  curl '${base}/api/1.0/webshop.json?id=${shop.id}&code=${shop.code}'`,
        `  curl '${base}/api/1.0/ratings_summary.json?id=${shop.id}&code=${shop.code}'`,
        `  curl -H 'Authorization: Bearer ${config.adminToken}' ${base}/admin/api/webshops/${shop.id}`,
        '',
      ].join('\n'),
    );
  } else if (adminTokenNote) {
    console.log(`Operator token: ${config.adminToken} (${adminTokenNote})`);
  }
  if (demo?.link) {
    console.log(
      `Dashboard: ${config.baseUrl}/dashboard/ — sign in as ${DEMO_OWNER_EMAIL} (owner of the demo shop) within 15 minutes:\n  ${demo.link}`,
    );
  }

  if (config.role !== 'api') await services.scheduler.start();
  // A worker process runs scheduled work only (and, with WORKER_PORT, listens for wake-ups, see jobs/wake.ts); API
  // processes (ROLE=all or api) also serve the API.
  const server = config.role === 'worker' ? undefined : await listen(config, app.callback());
  if (server) {
    log.info({ url: config.baseUrl, host: config.host, port: config.port }, 'listening');
    console.log(`Listening on ${config.host}:${config.port} (${config.baseUrl})`);
    void warmDashboardViews(services, log);
  } else {
    const listen = config.scheduler.push?.listen;
    log.info(
      listen
        ? `worker started (ROLE=worker: no API; wake-ups on ${listen.host}:${listen.port})`
        : 'worker started (ROLE=worker: no HTTP)',
    );
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // Stop accepting; in-flight requests finish; idle keep-alive connections are closed.
    if (server) {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
      });
    }
    await services.scheduler.stop();
    // Other processes' dashboard lists learn of this process's last invitations from the counter.
    await services.invitations.flushCounters().catch(() => undefined);
    // The compliance counts this process has not written yet (compliance/store.ts).
    await services.compliance.flush().catch(() => undefined);
    await client.close();
    await embedded?.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
