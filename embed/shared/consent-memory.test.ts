import { describe, expect, it } from 'vitest';
import { isRemembered, orderKey, remember } from './consent-memory.js';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('remembering a choice per order', () => {
  it('stores a hashed key in both storages under one name, never the order number', () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    const key = orderKey(12, 'A-1001');
    expect(isRemembered([session, local], '_service_consent', key)).toBe(false);
    remember([session, local], '_service_consent', key);
    expect(isRemembered([session, local], '_service_consent', key)).toBe(true);
    expect(isRemembered([new MemoryStorage(), local], '_service_consent', key)).toBe(true);
    expect([...session.items.keys()]).toEqual(['_service_consent']);
    expect(session.items.get('_service_consent')).not.toContain('1001');
    expect(isRemembered([session], '_service_consent', orderKey(12, 'A-1002'))).toBe(false);
  });

  it('survives blocked or broken storage', () => {
    const blocked = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const garbage = new MemoryStorage();
    garbage.setItem('_service_consent', '{not json');
    remember([blocked, garbage, undefined], '_service_consent', 'k');
    expect(isRemembered([blocked, garbage, undefined], '_service_consent', 'k')).toBe(true);
  });

  it('keeps the 50 most recent orders', () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 60; i++) remember([storage], 'n', orderKey(1, String(i)));
    expect(JSON.parse(storage.getItem('n')!)).toHaveLength(50);
    expect(isRemembered([storage], 'n', orderKey(1, '59'))).toBe(true);
    expect(isRemembered([storage], 'n', orderKey(1, '0'))).toBe(false);
  });
});
