// The service as an operator deploys it, for the scale-out test and the topology benchmark: real processes
// (`server/main.ts` through tsx, as the crash test runs it) in a chosen role, all on one database.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../server/db/embedded.js';

export type Role = 'all' | 'api' | 'worker';

export interface ServiceProcess {
  role: Role;
  /** Where it listens (roles `all` and `api`). */
  url: string | undefined;
  child: ChildProcess;
  /** Its stdout and stderr so far (the last 200 kB). */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s; resolves when it has exited. */
  stop(): Promise<void>;
}

interface ServiceOptions {
  role: Role;
  mongodbUri: string;
  dbName: string;
  adminToken: string;
  /** More variables (SMTP_URL, WEBHOOK_ALLOWED_HOSTS, …). */
  env?: Record<string, string>;
  /** How long start-up may take (ms; default 60 s): start-up migrations over a large database take longer. */
  startMs?: number;
}

/**
 * The variables that make API-only processes push their wake-ups to the worker (README, Deployment): the worker
 * listens on `workerPort`, the API processes are told its URL, both share the secret. Nothing for ROLE=all.
 */
export function pushEnv(
  role: Role,
  workerPort: number,
  secret = 'topology-worker-secret-0123456789',
): Record<string, string> {
  if (role === 'worker') return { WORKER_PORT: String(workerPort), WORKER_SECRET: secret };
  if (role === 'api') return { WORKER_WAKE_URL: `http://127.0.0.1:${workerPort}`, WORKER_SECRET: secret };
  return {};
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((ok) => child.once('exit', () => ok()));

export async function until(check: () => boolean | Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts one process and, for the roles that serve HTTP, waits until it answers /healthz. */
export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  const port = options.role === 'worker' ? 0 : await freePort();
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-200_000));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // Not the caller's environment: vitest sets variables (BASE_URL=/, …) that the service would read.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      BASE_URL: 'https://reviews.scale.example',
      MONGODB_URI: options.mongodbUri,
      MONGODB_DB: options.dbName,
      ADMIN_TOKEN: options.adminToken,
      DEMO_SHOP: '0',
      PORT: String(port),
      ROLE: options.role,
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_SHOP: '0',
      // The worker says it started at level info; the API processes' info would be a line per request.
      LOG_LEVEL: options.role === 'worker' ? 'info' : 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = options.role === 'worker' ? undefined : `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    role: options.role,
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited(child);
      clearTimeout(kill);
    },
  };
  if (url) {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the ${options.role} process exited at start:\n${output}`);
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      options.startMs ?? 60_000,
      () => `the ${options.role} process did not answer /healthz:\n${output}`,
    );
  } else {
    await until(
      () => {
        if (child.exitCode !== null) throw new Error(`the worker exited at start:\n${output}`);
        return output.includes('worker started');
      },
      options.startMs ?? 60_000,
      () => `the worker did not start:\n${output}`,
    );
  }
  return service;
}
