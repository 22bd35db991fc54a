// Scheduled work runs on Agenda with the Mongo backend, in the service's own database.
//
// The durable state of the work lives in the domain collections (an invitation's `scheduled`/`sent`, an event's
// deliveries), not in Agenda: each kind of work is a "drain" job that takes what is due from its collection.
// Agenda makes sure the drains run: on a short poll, and at once when work is queued (`trigger`).
// Locks are short and extended while a drain runs, so a crashed process's work is taken over within a minute.
import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from '../db/index.js';
import type { Logger } from '../log.js';

export interface SchedulerOptions {
  /** How often the worker polls for due Agenda jobs (ms). */
  pollMs: number;
  /** Lock lifetime of a running job (ms); extended while it runs. */
  lockLifetimeMs: number;
  /** Whether this process claims and runs jobs (false in API-only processes). */
  worker: boolean;
}

export type Drain = (signal: { touch: () => Promise<void> }) => Promise<void>;

export class Scheduler {
  readonly agenda: Agenda;
  private readonly drains = new Map<string, Drain>();
  private readonly everyMs = new Map<string, number>();
  private started = false;
  /** Drains triggered in this process while they run: run once more afterwards instead of queueing a job. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(
    db: Db,
    private readonly log: Logger,
    private readonly options: SchedulerOptions,
  ) {
    this.agenda = new Agenda({
      backend: new MongoBackend({ mongo: db, collection: 'jobs' }),
      processEvery: options.pollMs,
      defaultLockLifetime: options.lockLifetimeMs,
      // Finished one-off jobs are removed, so claiming stays fast as history grows.
      removeOnComplete: true,
      defaultConcurrency: 1,
    });
    this.agenda.on('error', (err: unknown) => log.error({ err }, 'scheduler error'));
  }

  /** Defines a drain job; `everyMs` makes it also run periodically (as a safety net for missed triggers). */
  define(name: string, drain: Drain, everyMs?: number): void {
    this.drains.set(name, drain);
    if (everyMs) this.everyMs.set(name, everyMs);
    this.agenda.define(
      name,
      async (job: Job) => {
        await this.runHere(name, job);
      },
      { concurrency: 1, lockLifetime: this.options.lockLifetimeMs },
    );
  }

  async start(): Promise<void> {
    if (!this.options.worker) return;
    await this.agenda.start();
    for (const [name, ms] of this.everyMs) await this.agenda.every(ms, name);
    this.started = true;
    // Catch up at once with what was due while no worker ran (Agenda's first periodic run is one period away).
    for (const name of this.drains.keys()) this.trigger(name);
  }

  /**
   * Work of this kind was queued: run the drain now. In a worker process it runs here at once (coalesced with a
   * run in progress); in an API-only process a one-off job is queued for the workers' next poll.
   */
  trigger(name: string): void {
    if (this.started) {
      void this.runHere(name).catch((err: unknown) => this.log.error({ err, job: name }, 'drain failed'));
      return;
    }
    if (!this.options.worker) {
      this.agenda.now(name).catch((err: unknown) => this.log.error({ err, job: name }, 'could not queue job'));
    }
  }

  /** Runs a drain in this process; a run requested while one is in progress happens once right after it. */
  private async runHere(name: string, job?: Job): Promise<void> {
    const inProgress = this.running.get(name);
    if (inProgress) {
      this.again.add(name);
      return inProgress;
    }
    const drain = this.drains.get(name);
    if (!drain) return;
    const touch = async () => {
      if (job) await job.touch();
    };
    const run = (async () => {
      do {
        this.again.delete(name);
        await drain({ touch });
      } while (this.again.has(name));
    })();
    this.running.set(name, run);
    try {
      await run;
    } finally {
      this.running.delete(name);
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.options.worker) await this.agenda.stop();
    await Promise.allSettled([...this.running.values()]);
  }
}
