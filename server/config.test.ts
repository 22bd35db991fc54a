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

  it('bounds all caches together by CACHE_MEMORY_MB; reads the old per-cache CACHE_MAX_MB as it, with a warning', () => {
    const MB = 1024 * 1024;
    expect(loadConfig({}).cache).toEqual({ ttlMs: 5000, maxBytes: 256 * MB });
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ CACHE_MEMORY_MB: '512' }).cache.maxBytes).toBe(512 * MB);
    const old = loadConfig({ CACHE_MAX_MB: '64', CACHE_MAX_ENTRIES: '20000' });
    expect(old.cache.maxBytes).toBe(64 * MB);
    expect(old.warnings).toEqual([
      expect.stringMatching(/^CACHE_MAX_MB is deprecated: read as CACHE_MEMORY_MB=64/),
      expect.stringMatching(/^CACHE_MAX_ENTRIES is deprecated and ignored/),
    ]);
    const both = loadConfig({ CACHE_MAX_MB: '64', CACHE_MEMORY_MB: '300' });
    expect(both.cache.maxBytes).toBe(300 * MB);
    expect(both.warnings).toEqual([expect.stringMatching(/CACHE_MAX_MB is deprecated and ignored/)]);
  });
});
