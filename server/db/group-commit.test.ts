import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes an item at once when idle, and items added during a write together in the next one', async () => {
    const writes: number[][] = [];
    let release: () => void = () => undefined;
    const group = new GroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((ok) => (release = ok));
    });
    const first = group.add(1);
    const later = [group.add(2), group.add(3), group.add(4)];
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('rejects the items of a failed write, and goes on with later ones', async () => {
    let fail = true;
    const group = new GroupCommit<string>(async () => {
      if (fail) throw new Error('database down');
    });
    await expect(group.add('a')).rejects.toThrow('database down');
    fail = false;
    await expect(group.add('b')).resolves.toBeUndefined();
  });
});

describe('GroupCommit results', () => {
  it('hands each caller its own result, and fails only the callers whose item failed', async () => {
    const group = new GroupCommit<number, string>(async (items) =>
      items.map((n) => (n < 0 ? new Error(`bad ${n}`) : `ok ${n}`)),
    );
    const [a, b, c] = [group.add(1), group.add(-2), group.add(3)];
    await expect(a).resolves.toBe('ok 1');
    await expect(b).rejects.toThrow('bad -2');
    await expect(c).resolves.toBe('ok 3');
  });

  it('writes at most maxBatch items at a time', async () => {
    const writes: number[] = [];
    const group = new GroupCommit<number>(async (items) => void writes.push(items.length), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => group.add(n)));
    expect(writes).toEqual([1, 2, 2]);
  });
});
