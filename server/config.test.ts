import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:3000',
      brand: 'service',
      brandName: 'Service',
      dataDir: './data',
    });
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ BASE_URL: 'not a url' })).toThrow(/BASE_URL/);
  });

  it('refuses production without ADMIN_TOKEN and MONGODB_URI', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      expect((err as Error).message).toMatch(/ADMIN_TOKEN/);
      expect((err as Error).message).toMatch(/MONGODB_URI/);
    }
  });

  it('takes pushed wake-ups only with a secret and in the role that uses them', () => {
    const secret = 'worker-secret-0123456789abcdef';
    expect(loadConfig({ ROLE: 'worker', WORKER_PORT: '3100', WORKER_SECRET: secret }).scheduler.push).toEqual({
      secret,
      listen: { host: '127.0.0.1', port: 3100 },
      workerUrls: [],
    });
    expect(
      loadConfig({ ROLE: 'api', WORKER_WAKE_URL: 'http://10.0.0.5:3100, http://10.0.0.6:3100', WORKER_SECRET: secret })
        .scheduler.push?.workerUrls,
    ).toEqual(['http://10.0.0.5:3100', 'http://10.0.0.6:3100']);
    expect(loadConfig({}).scheduler.push).toBeUndefined();
    expect(() => loadConfig({ ROLE: 'worker', WORKER_PORT: '3100' })).toThrow(/WORKER_SECRET: required/);
    expect(() => loadConfig({ ROLE: 'worker', WORKER_PORT: '3100', WORKER_SECRET: 'short' })).toThrow(
      /WORKER_SECRET: must be at least 24/,
    );
    expect(() => loadConfig({ ROLE: 'api', WORKER_PORT: '3100', WORKER_SECRET: secret })).toThrow(
      /WORKER_PORT: only with ROLE=worker/,
    );
    expect(() => loadConfig({ ROLE: 'worker', WORKER_WAKE_URL: 'http://w:3100', WORKER_SECRET: secret })).toThrow(
      /WORKER_WAKE_URL: only with ROLE=api/,
    );
    expect(() => loadConfig({ ROLE: 'api', WORKER_WAKE_URL: 'ftp://w', WORKER_SECRET: secret })).toThrow(
      /WORKER_WAKE_URL/,
    );
  });
});
