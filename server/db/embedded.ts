// Starts a MongoDB-protocol server for development and tests when no MONGODB_URI is configured:
// `mongod` when one is on the PATH, otherwise FerretDB 1.24 with its SQLite backend (scripts/install-ferretdb.sh
// builds it), otherwise mongodb-memory-server when the user installed it. Data lives under dataDir and survives
// restarts; stop() ends the server with the service.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
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

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`database server exited with code ${child.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>((ok) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), ok(true)));
      socket.once('error', () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`database server did not open port ${port} in 20 s:\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => (clearTimeout(kill), ok()));
    child.kill('SIGTERM');
  });
}

async function startProcess(
  kind: 'mongod' | 'ferretdb',
  command: string,
  args: string[],
  port: number,
): Promise<EmbeddedDatabase> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitForPort(port, child, () => output);
  return { uri: `mongodb://127.0.0.1:${port}/`, kind, stop: () => stopChild(child) };
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const dir = resolve(dataDir);
  const port = await freePort();
  const mongod = onPath('mongod');
  if (mongod) {
    const dbPath = join(dir, 'mongod');
    mkdirSync(dbPath, { recursive: true });
    return startProcess('mongod', mongod, ['--dbpath', dbPath, '--bind_ip', '127.0.0.1', '--port', String(port)], port);
  }
  const ferretdb = findFerretDb();
  if (ferretdb) {
    const dbPath = join(dir, 'ferretdb');
    mkdirSync(dbPath, { recursive: true });
    return startProcess(
      'ferretdb',
      ferretdb,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${dbPath}/`,
        `--listen-addr=127.0.0.1:${port}`,
        `--state-dir=${dbPath}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=error',
      ],
      port,
    );
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
