// Behind TRUST_PROXY the client address is read from X-Forwarded-For, which the client itself may have started:
// each proxy appends the address it saw, so only the last TRUST_PROXY_HOPS entries were written by our proxies.
// Real HTTP requests against the per-address limit show which address the service counts.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ConfigError, loadConfig } from '../config.js';

const LIMIT = 3;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An address the client made up, different on every request (what a limit-dodging client sends). */
const forged = () => `198.51.100.${randomBytes(1)[0]! % 250}, 2001:db8::${randomBytes(2).toString('hex')}`;

async function statuses(t: TestApp, forwardedFor: () => string, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    seen.push((await t.fetch('/healthz', { headers: { 'x-forwarded-for': forwardedFor() } })).status);
  }
  return seen;
}

describe('TRUST_PROXY=1 with one proxy (TRUST_PROXY_HOPS defaults to 1)', () => {
  it('counts the address the proxy appended, whatever the client wrote before it', async () => {
    app = await startTestApp({ TRUST_PROXY: '1', RATE_LIMIT_PER_IP: String(LIMIT) });
    const seen = await statuses(app, () => `${forged()}, 203.0.113.7`, LIMIT + 2);
    expect(seen).toEqual([200, 200, 200, 429, 429]);
    // Another client behind the same proxy is not affected.
    expect(await statuses(app, () => `${forged()}, 203.0.113.8`, 1)).toEqual([200]);
  });
});

describe('TRUST_PROXY=1 with TRUST_PROXY_HOPS=2 (e.g. a CDN in front of a load balancer)', () => {
  it('counts the address two hops from the right', async () => {
    app = await startTestApp({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: '2', RATE_LIMIT_PER_IP: String(LIMIT) });
    // The load balancer appends the CDN's address, which is the same for many clients: it must not be the key.
    const seen = await statuses(app, () => `${forged()}, 203.0.113.9, 10.0.0.${randomBytes(1)[0]! % 250}`, LIMIT + 1);
    expect(seen).toEqual([200, 200, 200, 429]);
    expect(await statuses(app, () => `${forged()}, 203.0.113.10, 10.0.0.1`, 1)).toEqual([200]);
  });
});

describe('without TRUST_PROXY', () => {
  it('ignores X-Forwarded-For and counts the connection', async () => {
    app = await startTestApp({ RATE_LIMIT_PER_IP: String(LIMIT) });
    expect(await statuses(app, () => `${forged()}, 203.0.113.11`, LIMIT + 1)).toEqual([200, 200, 200, 429]);
  });
});

describe('TRUST_PROXY_HOPS', () => {
  it('defaults to 1 and accepts 1–20 with TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: '3' }).trustProxyHops).toBe(3);
    for (const bad of ['0', '21', 'two', '1.5']) {
      expect(() => loadConfig({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: bad }), bad).toThrow(/TRUST_PROXY_HOPS/);
    }
  });

  it('is refused without TRUST_PROXY, where it would mean nothing', () => {
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '2' })).toThrow(/TRUST_PROXY_HOPS: only with TRUST_PROXY=1/);
  });
});
