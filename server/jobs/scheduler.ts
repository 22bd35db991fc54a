// Scheduled work runs on Agenda with the Mongo backend, in the service's own database.
//
// The durable state of the work lives in the domain collections (an invitation's queue entry, an event's
// deliveries), not in Agenda: each kind of work is a "drain" that takes everything due from its collection.
// What makes the drains run:
// - in a process that runs jobs (ROLE=all or worker), queuing work runs the drain here at once (`trigger`);
// - an API-only process (ROLE=api) cannot run it. With WORKER_WAKE_URL it pushes the wake-up to the workers over
//   HTTP (wake.ts): they start the drain at once, as one process would, and may be told the ids of what was queued;
// - without a push, or when one fails, it raises the kind's wake-up marker: one small document per kind
//   of work in `scheduler_wakeups`, overwritten (by `_id`) with a new token. The workers read the few markers every
//   SCHEDULER_POLL_MS (once a second when they listen for pushes, or after quiet spells) and run the drain of each
//   kind whose token changed. However many items were queued, there is one marker per kind and one read per poll:
//   the cost of waking a worker does not grow with the work, which a job per item (claimed one by one, each claim a
//   scan of the jobs collection on FerretDB) did;
// - Agenda runs each drain periodically, as a safety net for whatever was missed (a process that died between
//   queuing and waking), with a lock that is extended while the drain runs.
// Transient database errors (SQLITE_BUSY, a dropped connection) are retried with a short backoff and logged once per
// episode: a wake-up is written in the end, a drain runs to the end.
import { randomUUID } from 'node:crypto';
import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { isDuplicateKey, type Collection, type Db } from '../db/index.js';
import type { Logger } from '../log.js';
import { realClock, sleepOn, type Clock } from './clock.js';
import { Episode, isTransient, withRetry } from './transient.js';
import { startWakeListener, WakePusher, type WakeListener, type WakeUpCall } from './wake.js';

interface SchedulerOptions {
  /** How often a worker reads the wake-up markers (ms); Agenda polls for its periodic jobs at most once a second. */
  pollMs: number;
  /** Lock lifetime of a running job (ms); extended while it runs. */
  lockLifetimeMs: number;
  /** Whether this process claims and runs jobs (false in API-only processes). */
  worker: boolean;
  /** Pushed wake-ups: a worker listens for them, an API-only process sends them to `workerUrls`. */
  push?: { secret: string; listen: { host: string; port: number } | undefined; workerUrls: string[] } | undefined;
  /** What the spacing of runs and pushes and a drain's retries wait on (tests move it by hand); the real clock by default. */
  clock?: Clock;
}

type Drain = (signal: { touch: () => Promise<void> }) => Promise<void>;
interface DrainOptions {
  /** Told the ids an API-only process pushed with a wake-up of this kind (before the drain is started). */
  receive?: (items: string[]) => void;
  /**
   * Runs triggered in a burst start at least this far apart (ms), so that the burst is taken in fewer, larger runs:
   * for work nobody notices a fraction of a second late (e-mail) whose runs each search a collection. A trigger
   * after a quiet spell still runs at once.
   */
  spacingMs?: number;
}

/** A kind of work's wake-up marker: `token` changes each time an API-only process queued work of that kind. */
interface WakeUp {
  /** The drain's name. */
  _id: string;
  token: string;
  at: Date;
}

export const WAKE_UPS = 'scheduler_wakeups';
/** How long a stopping process keeps trying to write its last wake-ups before leaving them to the periodic runs. */
const STOP_GRACE_MS = 5000;
/**
 * Agenda's poll (a claim attempt per job name, each a scan of the jobs collection on FerretDB) only finds the
 * periodic safety-net runs, which it then starts on time whatever the poll: no need to poll it as often as the
 * wake-ups. At 1 s it was most of what an idle service cost (bench/idle.ts).
 */
const AGENDA_POLL_MS = 5000;
/**
 * A worker that found no new wake-up for this long reads them only every IDLE_WATCH_MS, until one changes: an idle
 * service costs a read a second instead of one per SCHEDULER_POLL_MS, and the first work after a quiet spell waits
 * up to a second longer.
 */
const IDLE_AFTER_MS = 10_000;
const IDLE_WATCH_MS = 1000;

export class Scheduler {
  readonly agenda: Agenda;
  readonly wakeUps: Collection<WakeUp>;
  private readonly drains = new Map<string, Drain>();
  private readonly drainOptions = new Map<string, DrainOptions>();
  /** When each drain's last run started (for `spacingMs`). */
  private readonly lastRunAt = new Map<string, number>();
  /** API-only with WORKER_WAKE_URL: pushes wake-ups, falling back to the markers. */
  private readonly pusher: WakePusher | undefined;
  /** Worker with WORKER_PORT: where the pushes arrive. */
  private listener: WakeListener | undefined;
  /** The marker read in progress (awaited by stop: the client closes after it). */
  private reading: Promise<void> | undefined;
  private readonly everyMs = new Map<string, number>();
  private started = false;
  private stopping = false;
  private closed = false;
  /** Drains triggered in this process while they run: run once more afterwards instead of queueing a job. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** API-only: wake-up writes in flight, and the kinds queued again meanwhile (one more write after it). */
  private readonly waking = new Map<string, Promise<void>>();
  private readonly wakeAgain = new Set<string>();
  /** Worker: the token of each marker as last read (a drain ran after that read). */
  private readonly seen = new Map<string, string>();
  private watchTimer: NodeJS.Timeout | undefined;
  /** When a wake-up last changed (or the watch started). */
  private lastWakeUp = 0;
  private readonly episodes = new Map<string, Episode>();
  private readonly stopHooks: (() => Promise<void>)[] = [];
  private readonly clock: Clock;

  constructor(
    db: Db,
    private readonly log: Logger,
    private readonly options: SchedulerOptions,
  ) {
    this.wakeUps = db.collection<WakeUp>(WAKE_UPS);
    this.clock = options.clock ?? realClock;
    if (!options.worker && options.push?.workerUrls.length) {
      this.pusher = new WakePusher(
        options.push.workerUrls,
        options.push.secret,
        log,
        async (kinds) => {
          await Promise.all(kinds.map((kind) => this.wake(kind)));
        },
        (kind) => this.drainOptions.get(kind)?.spacingMs ?? 0,
        this.clock,
      );
    }
    // Agenda connects its backend from its constructor, in a promise nobody awaits, and the Mongo backend creates
    // indexes there: a database error at that moment (a dropped connection, SQLITE_BUSY) was an unhandled rejection,
    // which ends the process. The connection is retried here instead, until it succeeds or the process stops.
    const mongo = new MongoBackend({ mongo: db, collection: 'jobs' });
    const backend: MongoBackend = Object.create(mongo);
    backend.connect = () =>
      withRetry(() => mongo.connect(), {
        episode: this.episode('connecting the scheduler'),
        retryable: () => true,
        givingUp: () => this.closed,
      }).catch((err: unknown) => log.warn({ err }, 'scheduler not connected (stopping)'));
    this.agenda = new Agenda({
      backend,
      processEvery: Math.max(options.pollMs, AGENDA_POLL_MS),
      defaultLockLifetime: options.lockLifetimeMs,
      // Finished one-off jobs (queued by earlier versions) are removed, so claiming stays fast.
      removeOnComplete: true,
      defaultConcurrency: 1,
    });
    this.agenda.on('error', (err: unknown) => {
      // Agenda's last poll may still be in flight when the process closes its database client on shutdown.
      if (this.stopping) log.debug({ err }, 'scheduler error while stopping');
      else if (isTransient(err)) this.episode('polling for jobs').failed(err);
      else log.error({ err }, 'scheduler error');
    });
  }

  /** API-only: resolves once no wake-up push is in flight (those waiting for their spacing stay). */
  pushesSettled(): Promise<void> {
    return this.pusher?.settled() ?? Promise.resolve();
  }

  /** Worker: the port its wake-up listener got (WORKER_PORT; tests listen on 0). */
  get wakePort(): number | undefined {
    return this.listener?.port;
  }

  /**
   * Defines a drain job; `everyMs` makes it also run periodically (as a safety net for missed triggers); `receive`
   * takes the items that API-only processes name in their pushed wake-ups of this kind (see `trigger`).
   */
  define(name: string, drain: Drain, everyMs?: number, options: DrainOptions = {}): void {
    this.drains.set(name, drain);
    this.drainOptions.set(name, options);
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
    const listen = this.options.push?.listen;
    // Listening first: a push that arrives before the catch-up runs below is covered by them.
    if (listen) {
      this.listener = await startWakeListener({
        ...listen,
        secret: this.options.push!.secret,
        log: this.log,
        onWake: (calls) => this.woken(calls),
      });
      this.log.info({ host: listen.host, port: this.listener.port }, 'listening for wake-ups');
    }
    await this.agenda.start();
    // Processes often start together: a write that collides with another's is tried again.
    for (const [name, ms] of this.everyMs) {
      await withRetry(() => this.agenda.every(ms, name), {
        episode: this.episode('scheduling the periodic runs'),
        retryable: isTransient,
        givingUp: () => this.stopping,
      });
    }
    // The markers as they are now: what they announce is covered by the catch-up runs just below.
    await this.readWakeUps().catch(() => undefined);
    this.started = true;
    // A worker that is pushed its wake-ups reads the markers at the idle pace until one changes.
    this.lastWakeUp = this.listener ? 0 : Date.now();
    this.watch();
    // Catch up at once with what was due while no worker ran (Agenda's first periodic run is one period away).
    for (const name of this.drains.keys()) this.trigger(name);
  }

  /**
   * Work of this kind was queued (and is stored): run the drain. In a process that runs jobs it runs here at once,
   * coalesced with a run in progress; in an API-only process the workers are woken: pushed to, with `item` (the id
   * of what was queued, for the kind's `receive` in the worker), or through the kind's marker.
   */
  trigger(name: string, item?: string): void {
    if (this.started) {
      void this.runHere(name).catch((err: unknown) => {
        // A drain that gave up because the process is stopping: the next process's catch-up run takes its work.
        if (this.stopping) this.log.warn({ err, job: name }, 'drain stopped with the process');
        else this.log.error({ err, job: name }, 'drain failed');
      });
      return;
    }
    if (this.options.worker) return;
    if (this.pusher && !this.stopping) this.pusher.push(name, item);
    else void this.wake(name);
  }

  /** Worker: a pushed wake-up arrived. Unknown kinds (a newer API process) are left to the markers and periodic runs. */
  private woken(calls: WakeUpCall[]): void {
    for (const { kind, items } of calls) {
      if (!this.drains.has(kind)) continue;
      if (items?.length) this.drainOptions.get(kind)?.receive?.(items);
      this.trigger(kind);
    }
  }

  /**
   * Raises the marker; one write at a time per kind. A trigger during a write gets one more write after it, so
   * every item queued is followed by a write that started after it was stored. Writes of a kind are at least half a
   * poll apart (the workers read the marker once a poll, so more would not wake them sooner): a burst of 300 items
   * makes a handful of writes, not 300 that compete with the items' own inserts for the database.
   */
  private wake(name: string): Promise<void> {
    const inFlight = this.waking.get(name);
    if (inFlight) {
      this.wakeAgain.add(name);
      return inFlight;
    }
    const run = (async () => {
      try {
        for (let first = true; first || this.wakeAgain.has(name); first = false) {
          if (!first) await new Promise((ok) => setTimeout(ok, this.options.pollMs / 2));
          this.wakeAgain.delete(name);
          await withRetry(() => this.writeWakeUp(name), {
            episode: this.episode(`waking the workers for ${name}`),
            // Any error: the marker is the only link to the workers (two processes' first upserts may also collide).
            retryable: () => true,
            givingUp: () => this.closed,
          });
        }
      } catch (err) {
        // Only when stopping: the workers' periodic run of this drain picks the work up.
        this.log.warn({ err, job: name }, 'stopped before the workers could be woken; the periodic run will send it');
      } finally {
        this.waking.delete(name);
      }
    })();
    this.waking.set(name, run);
    return run;
  }

  private async writeWakeUp(name: string): Promise<void> {
    const update = { $set: { token: randomUUID(), at: new Date() } };
    try {
      await this.wakeUps.updateOne({ _id: name }, update, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another process created the marker at the same moment (an upsert is not atomic on FerretDB): update it.
      await this.wakeUps.updateOne({ _id: name }, update);
    }
  }

  /** Worker: reads the markers every poll and runs the drains whose marker changed. */
  private watch(): void {
    this.watchTimer = setTimeout(
      () => {
        this.reading = this.readAndTrigger().finally(() => {
          this.reading = undefined;
          if (this.started) this.watch();
        });
      },
      Date.now() - this.lastWakeUp > IDLE_AFTER_MS ? Math.max(this.options.pollMs, IDLE_WATCH_MS) : this.options.pollMs,
    );
  }

  private async readAndTrigger(): Promise<void> {
    const episode = this.episode('reading wake-ups');
    try {
      const changed = await this.readWakeUps();
      if (changed.length) this.lastWakeUp = Date.now();
      for (const name of changed) this.trigger(name);
      episode.recovered();
    } catch (err) {
      if (this.stopping) this.log.debug({ err }, 'wake-up read ended by stopping');
      else if (isTransient(err)) episode.failed(err);
      else this.log.error({ err }, 'could not read the wake-ups');
    }
  }

  /** The kinds whose marker changed since the last read (a handful of documents: cheap on any database). */
  private async readWakeUps(): Promise<string[]> {
    const changed: string[] = [];
    for (const wakeUp of await this.wakeUps.find({}).toArray()) {
      if (!this.drains.has(wakeUp._id) || this.seen.get(wakeUp._id) === wakeUp.token) continue;
      this.seen.set(wakeUp._id, wakeUp.token);
      changed.push(wakeUp._id);
    }
    return changed;
  }

  /** Runs a drain in this process; a run requested while one is in progress happens once right after it. */
  private async runHere(name: string, job?: Job): Promise<void> {
    const inProgress = this.running.get(name);
    if (inProgress) {
      this.again.add(name);
      // A periodic job only asks for one more round: waiting for a run it cannot touch would let its lock expire.
      return job ? undefined : inProgress;
    }
    const drain = this.drains.get(name);
    if (!drain) return;
    const touch = async () => {
      if (job) await job.touch();
    };
    const spacingMs = this.drainOptions.get(name)?.spacingMs ?? 0;
    // Started from a later microtask: `running` is set (below) before the drain can trigger itself.
    const run = Promise.resolve().then(async () => {
      try {
        do {
          // Triggers during this wait join the run (`again` is cleared after it).
          const wait = (this.lastRunAt.get(name) ?? 0) + spacingMs - this.clock.now();
          if (wait > 0 && !this.stopping) await sleepOn(this.clock, wait);
          this.lastRunAt.set(name, this.clock.now());
          this.again.delete(name);
          // A drain takes everything due from its collection, so running it again after a failure loses nothing.
          await withRetry(() => drain({ touch }), {
            episode: this.episode(name),
            retryable: isTransient,
            givingUp: () => this.stopping,
            beforeRetry: touch,
            sleep: (ms) => sleepOn(this.clock, ms),
          });
        } while (this.again.has(name));
      } finally {
        // In the same turn as the last look at `again`: a trigger after it starts a new run. Cleared later (once the
        // caller resumed from `await run`), a trigger in between only marked this finished run for another round.
        this.running.delete(name);
        // A run that failed still owes the triggers it got meanwhile their run: their work was queued after it began.
        if (this.again.delete(name) && this.started) this.trigger(name);
      }
    });
    this.running.set(name, run);
    await run;
  }

  private episode(what: string): Episode {
    let episode = this.episodes.get(what);
    if (!episode) {
      episode = new Episode(this.log, what);
      this.episodes.set(what, episode);
    }
    return episode;
  }

  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    clearTimeout(this.watchTimer);
    await this.listener?.close();
    if (this.options.worker) await this.agenda.stop();
    const grace = setTimeout(() => (this.closed = true), STOP_GRACE_MS);
    // Pushes in flight end (or fall back to the markers) before the marker writes are awaited.
    await this.pusher?.flushed();
    await Promise.allSettled([...this.running.values(), ...this.waking.values(), this.reading]);
    await Promise.allSettled(this.stopHooks.map((hook) => hook()));
    clearTimeout(grace);
    this.closed = true;
  }

  /** Work that drains hand off and do not wait for (webhook requests) is ended by `stop` too, after the drains. */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }
}
