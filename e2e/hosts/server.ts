// Playwright global setup for the embed specs (after e2e/server.ts has started the service): builds the embed if
// needed, seeds a shop with reviews through the operator API (imported, as a shop moving to us brings them), and serves the demo shop pages (e2e/hosts/*.html)
// from another site, 127.0.0.2, so that every call the embed makes is cross-site, as on a real shop.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { testConfig } from '../../server/config.js';
import { freePort } from '../../server/db/embedded.js';
import {
  HOST_PAGES_DIR,
  globalsJs,
  renderHostPage,
  snippetJs,
  strictCsp,
  type HostContext,
} from '../../server/embed/demo.js';
import { ensureEmbedBuilt } from '../../embed/test/build.js';

export const HOST = '127.0.0.2';

const REVIEWS = [
  {
    name: 'Marieke',
    rating: 5,
    comment: 'Lovely city bike, delivered fully assembled within two days.',
    verified: true,
    reply: 'Thank you, Marieke! Enjoy the rides.',
  },
  {
    name: 'Tom B.',
    rating: 4,
    comment: 'Good advice on the phone. The bell was missing, they sent one at once.',
    verified: true,
    incentivised: true,
  },
  { name: 'Sanne', rating: 5, comment: 'Cargo bike is perfect for the school run.', verified: true },
  {
    name: 'Jeroen',
    rating: 3,
    comment: 'Nice bike, but delivery took a week longer than promised.',
    verified: false,
    reply: 'Sorry, Jeroen: our carrier had a backlog. We have added a second one.',
  },
  { name: 'Aylin', rating: 5, comment: 'Third bike from this shop, always good.', verified: true },
  { name: 'Peter', rating: 4, comment: null, verified: true },
  { name: 'Lotte', rating: 5, comment: 'Fast, friendly and fairly priced.', verified: true },
];

async function call(base: string, path: string, method: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

export default async function setup(): Promise<() => Promise<void>> {
  await ensureEmbedBuilt();
  const service = process.env.WIDGET_BASE!;
  const token = testConfig().adminToken!;
  const shop = (await call(
    service,
    '/admin/api/webshops',
    'POST',
    {
      name: 'Trapper Bikes',
      url: 'https://trapper.example/',
      approved_date: '2021-03-15',
      reply_access: true,
      languages: [{ iso: 'nl', main: true }, { iso: 'en' }, { iso: 'de' }],
    },
    token,
  )) as { id: number; code: string };
  // A shop that joined three years ago, so it shows the membership badge.
  const client = new MongoClient(process.env.E2E_MONGODB_URI!);
  await client.connect();
  await client
    .db(process.env.E2E_MONGODB_DB)
    .collection('webshops')
    .updateOne({ id: shop.id }, { $set: { created: new Date(Date.now() - 3.2 * 365 * 86_400_000) } });
  await client.close();
  for (const [i, r] of REVIEWS.entries()) {
    const { reply, ...review } = r;
    // Imported from another platform, all but one (which shows the label without a platform's name).
    const from = r.name === 'Peter' ? {} : { imported_from: 'Kiyoh' };
    const created = new Date(Date.now() - (i + 1) * 86_400_000 * 3).toISOString();
    const { id } = await call(
      service,
      `/admin/api/webshops/${shop.id}/reviews`,
      'POST',
      {
        ...review,
        ...from,
        email: `customer${i}@example.com`,
        country: 'NL',
        language: 'nl',
        created,
      },
      token,
    );
    if (reply) {
      await call(service, `/api/1.0/review_replies.json?id=${shop.id}&code=${shop.code}`, 'POST', {
        review_id: id,
        reply,
      });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    // `/de/shop.html` is shop.html, for the language-from-the-address pages.
    const name = url.pathname.replace(/^\/[a-z]{2}(?=\/)/, '').slice(1) || 'index.html';
    const ctx: HostContext = {
      service,
      shopId: shop.id,
      apiCode: shop.code,
      brand: 'service',
      query: url.searchParams,
    };
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (name === 'shop.css')
      return send(200, 'text/css; charset=utf-8', readFileSync(join(HOST_PAGES_DIR, 'shop.css')));
    if (name === 'snippet.js')
      return send(200, 'text/javascript; charset=utf-8', `${globalsJs(ctx)}\n${snippetJs(ctx)}`);
    const body = renderHostPage(name, ctx);
    if (body === undefined) return send(404, 'text/plain', 'not found');
    send(
      200,
      'text/html; charset=utf-8',
      body,
      name === 'csp.html' ? { 'content-security-policy': strictCsp(service) } : {},
    );
  });
  const port = await freePort(HOST);
  await new Promise<void>((ok) => server.listen(port, HOST, ok));
  process.env.HOST_BASE = `http://${HOST}:${port}`;
  process.env.EMBED_SHOP = String(shop.id);
  process.env.EMBED_CODE = shop.code;

  return async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  };
}
