import type { Queue } from 'pg-boss';
import type { z } from 'zod';
import type { Logger } from '../logging/logger.ts';

/** What a job handler gets besides its payload. `TDeps` is the app's service container. */
export interface JobContext<TDeps> {
  jobId: string;
  /** 0 on the first attempt; pg-boss retries according to the queue options. */
  retryCount: number;
  /** Aborted when the job expires or the worker stops: long handlers must check it. */
  signal: AbortSignal;
  logger: Logger;
  deps: TDeps;
}

export interface JobSchedule {
  /** Five-field cron expression, evaluated in UTC. */
  cron: string;
  /** Payload of the scheduled run; validated like any other payload. */
  payload: unknown;
}

/**
 * A typed job kind: the queue name, the zod schema every payload must satisfy (checked when the job
 * is sent and again when it is received, since rows can be written by older or other processes),
 * the handler, and optional queue options and schedule.
 */
export interface JobDefinition<TPayload, TDeps> {
  readonly name: string;
  readonly payload: z.ZodType<TPayload>;
  readonly queue: Omit<Queue, 'name'>;
  readonly schedule: JobSchedule | undefined;
  /** Jobs of this kind one worker process runs at the same time. */
  readonly concurrency: number;
  readonly handle: (payload: TPayload, context: JobContext<TDeps>) => Promise<void>;
}

const QUEUE_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

export function defineJob<TSchema extends z.ZodType, TDeps>(definition: {
  name: string;
  payload: TSchema;
  queue?: Omit<Queue, 'name'>;
  schedule?: JobSchedule;
  concurrency?: number;
  handle(payload: z.output<TSchema>, context: JobContext<TDeps>): Promise<void>;
}): JobDefinition<z.output<TSchema>, TDeps> {
  if (!QUEUE_NAME.test(definition.name)) {
    throw new Error(`job name ${JSON.stringify(definition.name)} must be lowercase dot-separated words (e.g. "maintenance.expire-sessions")`);
  }
  if (definition.schedule) definition.payload.parse(definition.schedule.payload);
  return {
    name: definition.name,
    payload: definition.payload as z.ZodType<z.output<TSchema>>,
    queue: definition.queue ?? {},
    schedule: definition.schedule,
    concurrency: definition.concurrency ?? 1,
    handle: (payload, context) => definition.handle(payload, context),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds definitions of every payload type
export type AnyJobDefinition<TDeps> = JobDefinition<any, TDeps>;
