import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

describe('webhook settings', () => {
  it('defaults to https-only targets, the 1 min … 24 h schedule, a switch-off after 10 failed events, 100 per shop, 10 s', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowedHosts: [],
      retryScheduleSeconds: [60, 300, 1800, 7200, 21600, 43200, 86400],
      disableAfter: 10,
      maxPerShop: 100,
      timeoutMs: 10_000,
    });
  });

  it('reads allowed hosts (IPv6 with or without brackets), a short schedule, the switch-off count, the cap and the timeout', () => {
    const c = loadConfig({
      WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1, Hooks.Internal ,[::1],',
      WEBHOOK_RETRY_SCHEDULE: '1, 2,3',
      WEBHOOK_DISABLE_AFTER: '0',
      WEBHOOK_MAX_PER_SHOP: '5',
      WEBHOOK_TIMEOUT_MS: '2500',
    });
    expect(c.webhooks).toEqual({
      allowedHosts: ['127.0.0.1', 'hooks.internal', '::1'],
      retryScheduleSeconds: [1, 2, 3],
      disableAfter: 0,
      maxPerShop: 5,
      timeoutMs: 2500,
    });
  });

  it.each([['0'], ['-1'], ['1.5'], ['many'], ['1001']])(
    'refuses %j subscriptions per shop, naming the variable',
    (max) => {
      expect(() => loadConfig({ WEBHOOK_MAX_PER_SHOP: max })).toThrow(/WEBHOOK_MAX_PER_SHOP/);
    },
  );

  it.each([['0'], ['99'], ['60001'], ['10s']])('refuses a timeout of %j ms, naming the variable', (ms) => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: ms })).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });

  it.each([['1,,2'], ['1.5'], ['-1'], ['one'], [',']])('refuses the schedule %j, naming the variable', (schedule) => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: schedule })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('refuses a negative switch-off count', () => {
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '-1' })).toThrow(/WEBHOOK_DISABLE_AFTER/);
  });
});
