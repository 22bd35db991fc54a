// At LOG_LEVEL=debug every request is logged with its URL (http/middleware.ts accessLog): no live credential in a
// path or a query may reach the log. The real app and logger, a request to every kind of address that carries one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../test/harness.js';
import { captureLog, type CapturedLog } from '../test/log-capture.js';

let t: TestApp;
let captured: CapturedLog;
beforeAll(async () => {
  captured = captureLog('debug');
  t = await startTestApp({}, { log: captured.log });
});
afterAll(() => t.close());

/** A secret as the service makes them (32 random bytes, base64url), for this request only. */
const secret = () => randomBytes(32).toString('base64url');

/** [method, address with `{secret}` where the secret goes]: every address that carries a credential. */
const ADDRESSES: [string, string][] = [
  ['GET', '/dashboard/sign-in/{secret}'],
  ['GET', '/Dashboard/Sign-In/{secret}'],
  ['GET', '/review/{secret}'],
  ['POST', '/review/{secret}'],
  ['GET', '/REVIEW/{secret}'],
  ['GET', '/edit/{secret}'],
  ['POST', '/edit/{secret}'],
  ['GET', '/edit/{secret}/delete'],
  ['POST', '/edit/{secret}/renew'],
  ['GET', '/confirm/{secret}'],
  ['POST', '/confirm/{secret}'],
  ['GET', '/unsubscribe/{secret}'],
  ['POST', '/unsubscribe/{secret}'],
  ['DELETE', '/admin/api/tokens/{secret}'],
  ['GET', '/webshops/fetch_domain.json?url=https%3A%2F%2Fshop.example%2F&token={secret}'],
  ['GET', '/api/1.0/ratings.json?id=1&code={secret}'],
  ['GET', '/api/1.0/product_reviews.xml?id=1&code={secret}'],
  ['POST', '/api/1.0/invitations.json?id=1&code={secret}'],
  ['GET', '/api/1.0/webshop.json?id=1&CODE={secret}'],
  ['GET', '/api/1.0/webshop.json?id=1&c%6Fde={secret}'],
  ['GET', '/api/1.0/webshop.json?id=1&code={secret}&code={secret}'],
];

describe('the access log at debug level', () => {
  it.each(ADDRESSES)('%s %s: logged, without the secret', async (method, address) => {
    const value = secret();
    const before = captured.lines.length;
    const res = await t.fetch(address.replaceAll('{secret}', value), {
      method,
      headers: { authorization: `Bearer ${value}` },
    });
    await res.arrayBuffer();
    await captured.waitFor((lines) => lines.slice(before).some((l) => typeof l.url === 'string'));
    const logged = captured.lines.slice(before).find((l) => typeof l.url === 'string')!;
    expect(logged).toMatchObject({ method, status: res.status });
    expect(logged.url).toMatch(/redacted/);
    expect(captured.raw.join('')).not.toContain(value);
  });

  it('masks the e-mail address an operator looks up or erases (personal data, not a credential)', async () => {
    const before = captured.lines.length;
    await (await t.admin('/admin/api/webshops/1/invitations?email=jane.doe%40mail.example')).arrayBuffer();
    await (await t.admin('/admin/api/customers?Email=jane.doe%40mail.example', { method: 'DELETE' })).arrayBuffer();
    await captured.waitFor((lines) => lines.slice(before).filter((l) => typeof l.url === 'string').length === 2);
    expect(captured.raw.slice(before).join('')).not.toMatch(/jane\.doe/);
  });

  it('keeps addresses without a credential as they are', async () => {
    const before = captured.lines.length;
    await (await t.fetch('/dashboard/sign-in/new', { method: 'POST' })).arrayBuffer();
    await (await t.fetch('/webshops/rich_snippet?id=1&lang=nl')).arrayBuffer();
    await captured.waitFor((lines) => lines.slice(before).filter((l) => typeof l.url === 'string').length === 2);
    expect(
      captured.lines
        .slice(before)
        .map((l) => l.url)
        .filter(Boolean),
    ).toEqual(['/dashboard/sign-in/new', '/webshops/rich_snippet?id=1&lang=nl']);
  });
});

describe("Koa's error event (an error once the answer began, e.g. a client gone mid-body)", () => {
  it('goes to the log with its address masked, not to stderr with a stack', async () => {
    const printed: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    try {
      const token = secret();
      const ctx = { method: 'POST', url: `/dashboard/sign-in/${token}` };
      t.app.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), ctx);
      t.app.emit('error', new Error('stream broke'), ctx);
      expect(printed).toEqual([]);
      const lines = captured.lines.filter(
        (l) => l.msg === 'client went away' || l.msg === 'error after the answer began',
      );
      expect(lines.map((l) => [l.msg, l.url])).toEqual([
        ['client went away', '/dashboard/sign-in/[redacted]'],
        ['error after the answer began', '/dashboard/sign-in/[redacted]'],
      ]);
      expect(captured.raw.join('\n')).not.toContain(token);
    } finally {
      console.error = original;
    }
  });
});
