import { expect } from 'vitest';
import type { FakeTidal } from '../../../fakes/tidal/index.ts';
import type { TestApp } from '../../support/test-app.ts';
import type { JobJson } from '../migration-harness.ts';

/** What a finished migration must look like after crashes, faults or concurrent workers. */

export interface ExpectedMigration {
  jobId: string;
  /** Source (and target) playlist name. */
  name: string;
  /** TIDAL track ids of the source's songs, in source order. */
  trackIds: readonly string[];
}

type Api = (path: string) => Promise<{ status: number; json: unknown }>;

/**
 * Every job completed; each target playlist exists once and holds each expected song exactly once,
 * in source order; every item was written (none lost to a skip, none left pending or matched); no
 * ledger row is left uncertain.
 */
export async function expectCleanMigrations(api: Api, app: TestApp, tidal: FakeTidal, tidalUserId: string, expected: readonly ExpectedMigration[]): Promise<void> {
  for (const migration of expected) {
    const job = (await api(`/api/migrations/${migration.jobId}`)).json as JobJson;
    const items = (await api(`/api/migrations/${migration.jobId}/items?limit=500`)).json as { status: string; reason: string | null; title: string }[];
    expect(items).toHaveLength(migration.trackIds.length);
    const notWritten = items.filter((item) => item.status !== 'written').map((item) => `${item.title}: ${item.status} (${item.reason})`);
    expect(notWritten, `${migration.name}: items not written (job: ${job.status}, ${job.error_code ?? ''} ${job.error ?? ''})`).toEqual([]);
    expect(job, `job ${migration.name}: ${job.error_code ?? ''} ${job.error ?? ''}`).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(job.counts).toMatchObject({ total: migration.trackIds.length, written: migration.trackIds.length });
    for (const item of items) expect(item.reason, `${migration.name}: ${item.title} has no reason`).toBeTruthy();

    const uncertain = await app.app.services.migrations.store.execute({
      text: `select state, count(*)::int as n from operation_ledger where job_id = ? and state in ('intended', 'called', 'ambiguous') group by state`,
      values: [migration.jobId],
    });
    expect(uncertain, `${migration.name}: uncertain ledger rows`).toEqual([]);

    const targets = tidal.playlistsOf(tidalUserId).filter((playlist) => playlist.name === migration.name);
    expect(targets, `${migration.name}: target playlists`).toHaveLength(1);
    const entries = (tidal.playlistEntries(targets[0]!.id) ?? []).map((entry) => entry.id);
    expect(entries, `${migration.name}: each song exactly once, in order`).toEqual(migration.trackIds);
  }
}
