import { describe, expect, it } from 'vitest';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { backoffMs, Episode, isTransient, MAX_BACKOFF_MS, withRetry } from './transient.js';

const serverError = (message: string, code: number) => new MongoServerError({ message, code });

describe('isTransient', () => {
  it('knows the errors that pass by themselves', () => {
    expect(isTransient(serverError('database is locked (5) (SQLITE_BUSY)', 1))).toBe(true);
    expect(isTransient(new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'))).toBe(true);
    expect(isTransient(new MongoServerSelectionError('Server selection timed out after 30000 ms', {} as never))).toBe(
      true,
    );
    expect(isTransient(serverError('not primary', 10107))).toBe(true);
    // Wrapped, as a group insert reports a failed document.
    expect(isTransient(new Error('insert into x failed', { cause: serverError('database is locked', 1) }))).toBe(true);
  });

  it('leaves the others alone', () => {
    expect(isTransient(serverError('E11000 duplicate key error', 11000))).toBe(false);
    expect(isTransient(serverError('unknown operator: $foo', 2))).toBe(false);
    expect(isTransient(new TypeError('x is undefined'))).toBe(false);
    expect(isTransient('SQLITE_BUSY')).toBe(false);
  });
});

describe('backoffMs', () => {
  it('doubles from 50 ms to a ceiling of 5 s, between half and all of each step', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 1))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([25, 50, 100, 200]);
    expect(backoffMs(10, () => 1)).toBe(MAX_BACKOFF_MS);
    expect(backoffMs(1000, () => 1)).toBe(MAX_BACKOFF_MS);
  });
});

function capture() {
  const lines: { level: number; msg: string; failures?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('Episode', () => {
  it('logs the first failure of a run of them and the recovery, nothing in between', () => {
    const { log, lines } = capture();
    const episode = new Episode(log, 'claiming');
    for (let i = 0; i < 5; i++) episode.failed(new Error('busy'));
    episode.recovered();
    episode.recovered();
    expect(lines.map((l) => [l.level, l.msg, l.failures])).toEqual([
      [40, 'claiming: transient database error, retrying (logged once until it recovers)', undefined],
      [30, 'claiming: recovered', 5],
    ]);
  });

  it('starts a new episode after a quiet period when nobody reports the recovery', () => {
    const { log, lines } = capture();
    let now = 0;
    const episode = new Episode(log, 'polling', 60_000, () => now);
    episode.failed(new Error('busy'));
    now = 30_000;
    episode.failed(new Error('busy'));
    now = 100_000;
    episode.failed(new Error('busy'));
    expect(lines.filter((l) => l.level === 40)).toHaveLength(2);
  });
});

describe('withRetry', () => {
  it('retries what is retryable and throws the rest', async () => {
    const { log } = capture();
    let calls = 0;
    const waits: number[] = [];
    const result = await withRetry(
      async () => {
        if (++calls < 4) throw serverError('database is locked', 1);
        return 'done';
      },
      {
        episode: new Episode(log, 'x'),
        retryable: isTransient,
        givingUp: () => false,
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(result).toBe('done');
    expect(waits).toHaveLength(3);

    await expect(
      withRetry(async () => Promise.reject(new TypeError('bug')), {
        episode: new Episode(log, 'y'),
        retryable: isTransient,
        givingUp: () => false,
        sleep: async () => undefined,
      }),
    ).rejects.toThrow('bug');
  });

  it('stops retrying when giving up', async () => {
    const { log } = capture();
    let calls = 0;
    let stopping = false;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw serverError('database is locked', 1);
        },
        {
          episode: new Episode(log, 'z'),
          retryable: isTransient,
          givingUp: () => stopping,
          sleep: async () => {
            stopping = true;
          },
        },
      ),
    ).rejects.toThrow('database is locked');
    expect(calls).toBe(2);
  });
});
