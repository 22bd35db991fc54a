// /dev/outbox shows every e-mail the service would have sent (invitation links included). A web page the developer
// visits can reach the local port by DNS rebinding: its name then resolves to 127.0.0.1, so the request arrives
// from loopback, but it still carries the page's own name in Host. Only this machine's names may be answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-host-'));
  t = await startTestApp({ DATA_DIR: dir, NODE_ENV: 'development' });
});
afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request from loopback, so the Host header can be anything (fetch sets it from the URL). */
function status(path: string, host: string | undefined): Promise<number> {
  const { port } = new URL(t.url);
  const headers = host === undefined ? {} : { host };
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers, setHost: host !== undefined }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('/dev/outbox and the Host header', () => {
  it.each(['localhost', '127.0.0.1', '[::1]'])('answers Host: %s with and without the port', async (name) => {
    const { port } = new URL(t.url);
    expect(await status('/dev/outbox', `${name}:${port}`)).toBe(200);
    expect(await status('/dev/outbox', name)).toBe(200);
  });

  it.each(['rebind.example', '127.0.0.1.rebind.example', 'localhost.rebind.example', '127.0.0.1@rebind.example'])(
    'does not answer Host: %s (DNS rebinding)',
    async (name) => {
      const { port } = new URL(t.url);
      expect(await status('/dev/outbox', `${name}:${port}`)).toBe(404);
      expect(await status('/dev/outbox/1.eml', `${name}:${port}`)).toBe(404);
    },
  );

  it('does not answer a request without a Host header', async () => {
    expect(await status('/dev/outbox', undefined)).not.toBe(200);
  });
});
