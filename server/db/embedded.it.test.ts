// The embedded database has no authentication, so only the service's own user may reach it: FerretDB listens on a
// Unix socket in a 0700 directory and on no TCP port. (mongod and mongodb-memory-server stay on loopback TCP.)
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { findFerretDb, startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.js';

const mongodOnPath = spawnSync('sh', ['-c', 'command -v mongod']).status === 0;
const runsFerretDb = !mongodOnPath && findFerretDb() !== undefined;

let db: EmbeddedDatabase | undefined;
let dir: string | undefined;
afterEach(async () => {
  await db?.stop();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Processes started by this one (the database server is a child of the test worker). */
function children(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return (
          Number(
            readFileSync(`/proc/${pid}/stat`, 'utf8')
              .replace(/^.*\) /s, '')
              .split(' ')[1],
          ) === process.pid
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The TCP ports a process listens on, from its socket inodes and /proc/net/tcp{,6}. */
function tcpListenPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

const socketPathOf = (uri: string) => decodeURIComponent(/^mongodb:\/\/([^/]+)\//.exec(uri)![1]!);
const mode = (path: string) => statSync(path).mode & 0o777;

async function canUse(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db('probe').collection('c').insertOne({ ok: 1 });
    return (await client.db('probe').collection('c').countDocuments()) > 0;
  } finally {
    await client.close();
  }
}

describe.runIf(runsFerretDb)('the embedded FerretDB', () => {
  it('listens on a Unix socket in a 0700 directory and on no TCP port', async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-'));
    const before = new Set(children());
    db = await startEmbeddedDatabase(join(dir, 'data'));
    expect(db.kind).toBe('ferretdb');
    const socket = socketPathOf(db.uri);
    expect(socket.startsWith(join(dir, 'data'))).toBe(true);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(mode(dirname(socket))).toBe(0o700);
    const server = children().filter((pid) => !before.has(pid));
    expect(server).toHaveLength(1);
    expect(tcpListenPorts(server[0]!)).toEqual([]);
    expect(await canUse(db.uri)).toBe(true);
  });

  it('closes up a database directory an older version left open to others', async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-'));
    mkdirSync(join(dir, 'ferretdb'), { recursive: true });
    chmodSync(join(dir, 'ferretdb'), 0o755);
    db = await startEmbeddedDatabase(dir);
    expect(mode(join(dir, 'ferretdb'))).toBe(0o700);
  });

  it('starts again after a crash left its socket behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-'));
    const before = new Set(children());
    db = await startEmbeddedDatabase(dir);
    const socket = socketPathOf(db.uri);
    const server = children().filter((pid) => !before.has(pid));
    execFileSync('kill', ['-KILL', String(server[0])]);
    await db.stop();
    expect(existsSync(socket)).toBe(true);
    db = await startEmbeddedDatabase(dir);
    expect(await canUse(db.uri)).toBe(true);
  });

  it('puts the socket in a private temporary directory when DATA_DIR is too long for a socket address', async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-'));
    const deep = join(dir, 'a'.repeat(60), 'b'.repeat(60));
    db = await startEmbeddedDatabase(deep);
    const socket = socketPathOf(db.uri);
    expect(socket.startsWith(deep)).toBe(false);
    expect(Buffer.byteLength(socket)).toBeLessThan(104);
    expect(mode(dirname(socket))).toBe(0o700);
    expect(await canUse(db.uri)).toBe(true);
    await db.stop();
    db = undefined;
    expect(existsSync(dirname(socket))).toBe(false);
  });
});
