// Playwright global setup: starts FerretDB in a scratch directory, a real SMTP server that catches the e-mails,
// the real app (with its scheduler, so invitations are sent) on 127.0.0.1 and a merchant's page on 127.0.0.2
// (another site), seeds a shop with reviews, and passes the addresses to the tests through environment
// variables. Returns the teardown.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { buildApp } from '../server/app.js';
import { testConfig } from '../server/config.js';
import { freePort, startEmbeddedDatabase } from '../server/db/embedded.js';
import { createLogger } from '../server/log.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';

export const MERCHANT_HOST = '127.0.0.2';

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, ok);
  });
}

/**
 * The caught e-mails for the specs, which run in other processes: `GET /?to=<address>` answers the messages to
 * that address as JSON (subject, headers, decoded body), newest last.
 */
function mailbox(sink: SmtpSink): Server {
  return createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://mailbox').searchParams.get('to') ?? '';
    const mails = sink.to(to).map((m) => ({ headers: m.headers, messageId: m.messageId, body: m.body }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(mails));
  });
}

/** The merchant's page: `/?html=<markup>` puts the markup (an iframe snippet) into an ordinary shop page. */
function merchantPage(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant');
    const markup = url.searchParams.get('html') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A merchant’s shop</title>' +
        '<style>body{margin:0;padding:20px;font-family:sans-serif;background:#f4f1ea}</style></head>' +
        `<body><h1>Bike shop</h1><div id="slot">${markup}</div></body></html>`,
    );
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'widget-e2e-'));
  const database = await startEmbeddedDatabase(dir);
  const client = new MongoClient(database.uri);
  await client.connect();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sink = await startSmtpSink();
  // The dashboard's webhook test delivers to a receiver on this loopback address (refused by the SSRF rule otherwise).
  const config = testConfig({
    BASE_URL: base,
    RATE_LIMIT_PER_IP: '0',
    RATE_LIMIT_PER_SHOP: '0',
    SMTP_URL: sink.url,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });
  const { app, services } = await buildApp({ config, db: client.db('widget_e2e'), log: createLogger('silent') });
  const server = createServer(app.callback());
  await listen(server, port, '127.0.0.1');
  await services.scheduler.start();
  const mail = mailbox(sink);
  const mailPort = await freePort();
  await listen(mail, mailPort, '127.0.0.1');
  const merchant = merchantPage();
  const merchantPort = await freePort(MERCHANT_HOST);
  await listen(merchant, merchantPort, MERCHANT_HOST);

  const shop = await services.webshops.create({
    name: 'Fietsenwinkel De Trapper',
    url: 'https://trapper.example/',
    hero_color: '#e8590c',
    languages: [
      { name: 'Nederlands', url: 'https://trapper.example/', iso: 'nl', all: false, main: true },
      { name: 'English', url: 'https://trapper.example/en/', iso: 'en', all: false, main: false },
    ],
  });
  const long = 'Wonderful service and a very quick delivery, would order again without any doubt at all. ';
  const texts = [
    [
      'Maximiliaan van der Berg-Vermeulen',
      5,
      long.repeat(6),
      'Thank you very much for your kind words, we hope to see you again soon in our shop! '.repeat(3),
    ],
    ['Jane', 4, 'Good bike, the bell was missing but they sent it the next day.', null],
    ['Piet', 5, 'Top!', null],
    ['Anna Jansen', 3, long.repeat(2), 'Sorry to hear that, we have improved our packaging.'],
    ['', 5, 'Fast and friendly.', null],
    ['Kees', 4, long, null],
  ] as const;
  for (const [i, [name, rating, comment, reply]] of texts.entries()) {
    const review = await services.reviews.create(shop.id, {
      name,
      email: `c${i}@example.com`,
      rating,
      language: 'nl',
      comment,
      created: new Date(Date.UTC(2025, 5, 20 - i)),
    });
    if (reply)
      await services.reviews.update(review.id, {
        reply: { text: reply, date: new Date(), notify: false, revision: 1, notified: null },
      });
  }

  process.env.WIDGET_BASE = base;
  process.env.MERCHANT_BASE = `http://${MERCHANT_HOST}:${merchantPort}`;
  process.env.WIDGET_SHOP = String(shop.id);
  process.env.WIDGET_CODE = shop.code;
  process.env.E2E_MAILBOX = `http://127.0.0.1:${mailPort}`;
  // The operator API, for specs that seed shops, users and reviews as an operator would.
  process.env.E2E_ADMIN_TOKEN = config.adminToken;
  // Specs that need records no API hands out (the secrets of e-mailed links) seed them in the database.
  process.env.E2E_MONGODB_URI = database.uri;
  process.env.E2E_MONGODB_DB = 'widget_e2e';

  return async () => {
    await services.scheduler.stop();
    for (const s of [server, merchant, mail]) s.closeAllConnections();
    await Promise.all([server, merchant, mail].map((s) => new Promise((ok) => s.close(ok))));
    await sink.close();
    await client.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
