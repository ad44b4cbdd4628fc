import { PgBoss, type Job, type JobResult, type SendOptions } from 'pg-boss';
import type { Logger } from '../logging/logger.ts';
import { redactText } from '../logging/logger.ts';
import type { AnyJobDefinition, JobDefinition } from './job-definition.ts';

export class InvalidJobPayloadError extends Error {
  constructor(jobName: string, issues: string) {
    super(`invalid payload for job ${jobName}: ${issues}`);
    this.name = 'InvalidJobPayloadError';
  }
}

export interface JobQueueOptions<TDeps> {
  connectionString: string;
  logger: Logger;
  definitions: readonly AnyJobDefinition<TDeps>[];
  /** pg-boss schema; its own, separate from the application tables. */
  schema?: string;
  /**
   * `worker` processes also run schedules and pg-boss maintenance; pg-boss elects one cron runner
   * across all of them through the database, so extra workers never double-fire a schedule.
   */
  role: 'sender' | 'worker';
}

/**
 * The engine's job queue on pg-boss. Every process that sends jobs starts it; only worker processes
 * call `startWorkers`, which also owns schedules and pg-boss maintenance.
 */
export class JobQueue<TDeps> {
  readonly #boss: PgBoss;
  readonly #logger: Logger;
  readonly #definitions: Map<string, AnyJobDefinition<TDeps>>;
  readonly #role: 'sender' | 'worker';
  #started = false;

  constructor(options: JobQueueOptions<TDeps>) {
    this.#logger = options.logger.child({ component: 'jobs' });
    this.#definitions = new Map(options.definitions.map((definition) => [definition.name, definition]));
    this.#role = options.role;
    this.#boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema ?? 'pgboss',
      application_name: 'opl-jobs',
      schedule: options.role === 'worker',
      supervise: options.role === 'worker',
    });
    this.#boss.on('error', (error: Error) => this.#logger.error({ err: error }, 'job queue error'));
  }

  get definitions(): readonly AnyJobDefinition<TDeps>[] {
    return [...this.#definitions.values()];
  }

  async start(): Promise<void> {
    if (this.#started) return;
    await this.#boss.start();
    for (const definition of this.#definitions.values()) {
      const existing = await this.#boss.getQueue(definition.name);
      if (!existing) await this.#boss.createQueue(definition.name, definition.queue);
    }
    this.#started = true;
  }

  /** Validates the payload against the definition's schema, then enqueues it. Returns the job id. */
  async enqueue<TPayload>(definition: JobDefinition<TPayload, TDeps>, payload: TPayload, options: SendOptions = {}): Promise<string | null> {
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) throw new InvalidJobPayloadError(definition.name, parsed.error.message);
    return this.#boss.send(definition.name, parsed.data as object, options);
  }

  /** Registers a handler per definition and installs schedules. Worker processes only. */
  async startWorkers(deps: TDeps, options: { pollingIntervalSeconds?: number } = {}): Promise<void> {
    if (this.#role !== 'worker') throw new Error('startWorkers needs a JobQueue created with role "worker"');
    await this.start();
    for (const definition of this.#definitions.values()) {
      await this.#boss.work<unknown>(
        definition.name,
        {
          batchSize: 1,
          localConcurrency: definition.concurrency,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          perJobResults: true,
        },
        async (jobs) => Promise.all(jobs.map((job) => this.#runOne(definition, job, deps))),
      );
      if (definition.schedule) {
        await this.#boss.schedule(definition.name, definition.schedule.cron, definition.schedule.payload as object, { tz: 'UTC' });
      }
    }
  }

  async #runOne(definition: AnyJobDefinition<TDeps>, job: Job<unknown>, deps: TDeps): Promise<JobResult> {
    const logger = this.#logger.child({ job: definition.name, jobId: job.id });
    const parsed = definition.payload.safeParse(job.data);
    if (!parsed.success) {
      // Retrying cannot fix a malformed payload: fail it terminally, with the reason.
      logger.error({ issues: parsed.error.issues }, 'job payload failed validation; failing the job without retry');
      return { id: job.id, status: 'deadletter', output: { error: `invalid payload: ${parsed.error.message}` } };
    }
    const started = performance.now();
    try {
      await definition.handle(parsed.data, { jobId: job.id, retryCount: job.retryCount, signal: job.signal, logger, deps });
      logger.debug({ ms: Math.round(performance.now() - started) }, 'job completed');
      return { id: job.id, status: 'completed' };
    } catch (error) {
      logger.warn({ err: error, retryCount: job.retryCount }, 'job failed');
      return { id: job.id, status: 'failed', output: { error: redactText(error instanceof Error ? error.message : String(error)) } };
    }
  }

  /** True when pg-boss's schema is installed and the database answers. */
  async ping(): Promise<void> {
    const installed = await this.#boss.isInstalled();
    if (!installed) throw new Error('job queue schema is not installed');
  }

  async stop(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await this.#boss.stop({ graceful: true, timeout: 15_000, close: true });
  }
}
