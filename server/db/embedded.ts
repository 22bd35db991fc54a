// Starts a MongoDB-protocol server for development and tests when no MONGODB_URI is configured:
// `mongod` when one is on the PATH, otherwise FerretDB 1.24 with its SQLite backend (scripts/install-ferretdb.sh
// builds it), otherwise mongodb-memory-server when the user installed it. Data lives under dataDir and survives
// restarts; stop() ends the server with the service.
// These servers run without authentication, so FerretDB listens only on a Unix socket in a 0700 directory: other
// local users can neither connect nor read its files. mongod and mongodb-memory-server listen on loopback TCP.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, connect, type NetConnectOpts } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  uri: string;
  kind: 'mongod' | 'ferretdb' | 'mongodb-memory-server';
  stop(): Promise<void>;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, host, () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function findFerretDb(): string | undefined {
  const fromPath = onPath('ferretdb');
  if (fromPath) return fromPath;
  try {
    const gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
    const bin = join(gopath, 'bin', 'ferretdb');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether something accepts connections at a TCP port or a Unix socket path. */
function accepts(address: NetConnectOpts): Promise<boolean> {
  return new Promise<boolean>((ok) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });
}

const describeAddress = (address: NetConnectOpts) => ('path' in address ? address.path : `port ${address.port}`);

async function waitForListener(address: NetConnectOpts, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`database server exited with code ${child.exitCode}:\n${output()}`);
    if (await accepts(address)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`database server did not open ${describeAddress(address)} in 20 s:\n${output()}`);
}

/** A directory only this user may enter; an existing one (e.g. made by an older version) is closed up too. */
function privateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
  return path;
}

const SOCKET_NAME = 'db.sock'; // the driver takes a host as a socket path only when it ends in `.sock`
/** A socket address holds 108 bytes on Linux and 104 on macOS, the final NUL included. */
const MAX_SOCKET_PATH = 103;

/**
 * Where FerretDB's socket goes: in the private database directory, or, when that path is too long for a socket
 * address, in a private directory under the system's temporary directory that stop() removes.
 */
function socketPlace(dbPath: string): { path: string; remove: () => void } {
  const inDataDir = join(dbPath, SOCKET_NAME);
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return { path: inDataDir, remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'review-db-')); // mode 0700
  const path = join(dir, SOCKET_NAME);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `no socket path short enough for the embedded database: ${path} (set a shorter DATA_DIR or TMPDIR)`,
    );
  }
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A socket left behind by a server that crashed would make the new one fail with "address already in use". */
async function removeStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  if (await accepts({ path })) throw new Error(`another database server is listening at ${path}`);
  unlinkSync(path);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      ok();
    });
    child.kill('SIGTERM');
  });
}

async function startProcess(
  kind: 'mongod' | 'ferretdb',
  command: string,
  args: string[],
  address: { port: number } | { path: string },
): Promise<EmbeddedDatabase> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForListener(address, child, () => output);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  const host = 'path' in address ? encodeURIComponent(address.path) : `127.0.0.1:${address.port}`;
  return { uri: `mongodb://${host}/`, kind, stop: () => stopChild(child) };
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const dir = resolve(dataDir);
  const mongod = onPath('mongod');
  if (mongod) {
    const port = await freePort();
    const dbPath = join(dir, 'mongod');
    mkdirSync(dbPath, { recursive: true });
    return startProcess('mongod', mongod, ['--dbpath', dbPath, '--bind_ip', '127.0.0.1', '--port', String(port)], {
      port,
    });
  }
  const ferretdb = findFerretDb();
  if (ferretdb) {
    const dbPath = privateDir(join(dir, 'ferretdb'));
    const socket = socketPlace(dbPath);
    try {
      await removeStaleSocket(socket.path);
      const started = await startProcess(
        'ferretdb',
        ferretdb,
        [
          '--handler=sqlite',
          `--sqlite-url=file:${dbPath}/`,
          '--listen-addr=', // no TCP listener
          `--listen-unix=${socket.path}`,
          `--state-dir=${dbPath}`,
          '--telemetry=disable',
          '--debug-addr=-',
          '--log-level=error',
        ],
        { path: socket.path },
      );
      const stop = async () => {
        await started.stop();
        socket.remove();
      };
      return { ...started, stop };
    } catch (err) {
      socket.remove();
      throw err;
    }
  }
  try {
    // Not a dependency: it downloads mongod at first use, which needs internet. Users who have it installed get it.
    const moduleName = 'mongodb-memory-server';
    const { MongoMemoryServer } = (await import(moduleName)) as {
      MongoMemoryServer: { create(o: object): Promise<{ getUri(): string; stop(): Promise<boolean> }> };
    };
    const dbPath = join(dir, 'memory-server');
    mkdirSync(dbPath, { recursive: true });
    const server = await MongoMemoryServer.create({ instance: { dbPath, storageEngine: 'wiredTiger' } });
    return { uri: server.getUri(), kind: 'mongodb-memory-server', stop: async () => void (await server.stop()) };
  } catch {
    throw new Error(
      'No database: set MONGODB_URI, put mongod on the PATH, install Go so that `bash scripts/install-ferretdb.sh` ' +
        'can build FerretDB, or `npm install mongodb-memory-server` (needs internet).',
    );
  }
}
