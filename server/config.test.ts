import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', baseUrl: 'http://localhost:3000', brand: 'service', brandName: 'Service', dataDir: './data' });
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
});
