export { defineJob, type AnyJobDefinition, type JobContext, type JobDefinition, type JobSchedule } from './job-definition.ts';
export { InvalidJobPayloadError, JobQueue, type JobQueueOptions } from './job-queue.ts';
