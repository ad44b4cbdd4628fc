import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { OrganizerRunner } from './organizer-runner.ts';

interface OrganizerDeps {
  organizer: { runner: OrganizerRunner };
}

/**
 * One run of an organizer job. At most one waiting run per job (`short` policy keyed by the job
 * id); a run that finds the job leased by a live worker, or finished, returns at once. A run that
 * died mid-job is picked up by the queue's retry once the lease has run out; its items settle by
 * reading the playlists, never by sending again blindly.
 */
export const runOrganizerJob = defineJob({
  name: 'organizer.run',
  payload: z.object({ job_id: z.uuid() }).strict(),
  queue: { policy: 'short', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 1_800 },
  concurrency: 2,
  async handle(payload, { deps, signal }: JobContext<OrganizerDeps>) {
    await deps.organizer.runner.run(payload.job_id, signal);
  },
});
