import { expect } from 'vitest';
import type { MigrationHarness } from '../migrations/migration-harness.ts';

/** Small helpers the organizer tests share: the HTTP calls a client makes, and waiting for a job. */

export interface OrganizerJobJson {
  id: string;
  status: string;
  action: string;
  counts: { items: number; succeeded: number; failed: number; pending: number; retryable: number };
  items: { id: string; playlist_id: string; status: string; retryable: boolean; attempts: number; error_code: string | null; error: string | null; notes: string[]; removed_entries: { position: number; uri: string }[] | null }[];
}

export interface PreflightJson {
  token: string;
  confirmation_phrase: string | null;
  playlists: { playlist_id: string; name: string; relation: string; effect: string; ownership: { check: string; evidence: string } | null; removals: { position: number; uri: string; entry_id: string | null }[] | null; warnings: { code: string; message: string; positions: number[] }[] }[];
}

export function organizerClient(h: Pick<MigrationHarness, 'api'>) {
  const post = (path: string, body: unknown) => h.api(path, { method: 'POST', body: JSON.stringify(body) });
  return {
    playlists: (accountId: string) => h.api(`/api/organizer/playlists?account_id=${accountId}&refresh=true`),
    preflight: (body: unknown) => post('/api/organizer/preflight', body),
    createJob: (body: unknown) => post('/api/organizer/jobs', body),
    retry: (jobId: string) => post(`/api/organizer/jobs/${jobId}/retry`, {}),
    job: (jobId: string) => h.api(`/api/organizer/jobs/${jobId}`),
    async preflightOk(body: unknown): Promise<PreflightJson> {
      const answer = await post('/api/organizer/preflight', body);
      expect(answer.status, answer.text).toBe(200);
      return answer.json as PreflightJson;
    },
    async waitForJob(jobId: string, timeoutMs = 60_000): Promise<OrganizerJobJson> {
      const started = Date.now();
      let last: OrganizerJobJson | null = null;
      while (Date.now() - started < timeoutMs) {
        last = (await h.api(`/api/organizer/jobs/${jobId}`)).json as OrganizerJobJson;
        if (['completed', 'partial', 'failed'].includes(last.status)) return last;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      throw new Error(`organizer job ${jobId} did not finish; last: ${JSON.stringify(last)}`);
    },
    /** Preflight, then the job with the phrase the preflight named; returns the finished job. */
    async run(body: unknown): Promise<{ preflight: PreflightJson; job: OrganizerJobJson }> {
      const preflight = await this.preflightOk(body);
      const started = await post('/api/organizer/jobs', { preflight_token: preflight.token, confirmation: preflight.confirmation_phrase });
      expect(started.status, started.text).toBe(202);
      return { preflight, job: await this.waitForJob((started.json as OrganizerJobJson).id) };
    },
  };
}
