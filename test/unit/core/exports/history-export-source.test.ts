import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../../core/services/exports/export-error.ts';
import { historyExportSource } from '../../../../core/services/exports/history-export-source.ts';
import type { JobRow } from '../../../../core/services/migrations/migration-views.ts';

/**
 * History exports against the retention cleanup: the deadline is checked before anything is read,
 * but cleanup can pass it and delete the items while the export reads them.
 */

const JOB = '00000000-0000-4000-8000-000000000001';
const soon = () => new Date(Date.now() + 60_000).toISOString();
const past = () => new Date(Date.now() - 1_000).toISOString();

function job(detailExpiresAt: string | null, detailPurgedAt: string | null = null): JobRow {
  return {
    id: JOB,
    status: 'completed',
    sourceKind: 'provider',
    sourceProvider: 'spotify',
    detailExpiresAt,
    detailPurgedAt,
    selection: { collections: [{ id: 'pl-1', name: 'Road Trip', kind: 'PLAYLIST', total_tracks: 2 }] },
  } as unknown as JobRow;
}

const itemRow = (title: string, position: number) => ({ position, title, artist: 'Artist', album: null, duration_s: null, release_year: null, explicit: null, isrc: null, source_track_id: null, source_item_id: null, source_uri: null, source_metadata: null });

describe('history export source and retention cleanup', () => {
  it('items deleted by cleanup between the deadline check and the read ⇒ detail_expired (410), not an empty playlist', async () => {
    // The job as the export first sees it (deadline ahead), then as cleanup left it: deadline passed, items gone.
    const seen = [job(soon()), job(past())];
    const source = await historyExportSource({ job: async () => seen.shift() ?? job(past(), past()), execute: async () => [] }, 'owner', JOB);
    const read = source.read('pl-1');
    await expect(read).rejects.toBeInstanceOf(ExportError);
    await expect(read).rejects.toMatchObject({ reason: 'detail_expired' });
  });

  it('a purge that finished meanwhile (detail_purged_at set) ⇒ detail_expired too', async () => {
    const seen = [job(null), job(null, past())];
    const source = await historyExportSource({ job: async () => seen.shift()!, execute: async () => [] }, 'owner', JOB);
    await expect(source.read('pl-1')).rejects.toMatchObject({ reason: 'detail_expired' });
  });

  /** The job's items as the database answers the source's statements: the count, then slices by offset and limit. */
  function items(rows: ReturnType<typeof itemRow>[], onSlice: (offset: number) => void = () => undefined) {
    return async (statement: { text: string; values: unknown[] }) => {
      if (statement.text.includes('count(*)')) return [{ tracks: rows.length }];
      const [, , offset, limit] = statement.values as [string, string, number, number];
      onSlice(offset);
      return rows.slice(offset, offset + limit);
    };
  }
  const tracksOf = async (slices: AsyncIterable<readonly { title: string }[]>) => {
    const sizes: number[] = [];
    const titles: string[] = [];
    for await (const slice of slices) {
      sizes.push(slice.length);
      titles.push(...slice.map((track) => track.title));
    }
    return { sizes, titles };
  };

  it('items read before the deadline export whole, in order, a slice at a time from the database', async () => {
    const rows = Array.from({ length: 1_201 }, (_, index) => itemRow(`T${index}`, index));
    const offsets: number[] = [];
    const source = await historyExportSource({ job: async () => job(soon()), execute: items(rows, (offset) => offsets.push(offset)) }, 'owner', JOB);
    const item = await source.read('pl-1');
    expect(item.playlist.tracks).toEqual([]);
    expect(item.playlist.track_count).toBe(1_201);
    const { sizes, titles } = await tracksOf(item.slices);
    expect(sizes).toEqual([500, 500, 201]);
    expect(offsets).toEqual([0, 500, 1_000]);
    expect(titles).toEqual(rows.map((row) => row.title));
    // The job kept 2 as the playlist's size when it was selected; more items than that is no part.
    expect(item.partial).toBeNull();
  });

  it('cleanup passing the deadline while the slices are read ⇒ detail_expired after the last slice, never a file missing tracks', async () => {
    const seen = [job(soon()), job(soon()), job(past())];
    const source = await historyExportSource({ job: async () => seen.shift() ?? job(past()), execute: items([itemRow('A', 0), itemRow('B', 1)]) }, 'owner', JOB);
    const item = await source.read('pl-1');
    await expect(tracksOf(item.slices)).rejects.toMatchObject({ reason: 'detail_expired' });
  });

  it('rows without readable stored metadata are rebuilt and named in a warning added after the last slice', async () => {
    const source = await historyExportSource({ job: async () => job(soon()), execute: items([itemRow('A', 0), itemRow('B', 1)]) }, 'owner', JOB);
    const item = await source.read('pl-1');
    expect(item.warnings.map((warning) => warning.code)).toEqual(['historical_playlist_metadata_partial']);
    await tracksOf(item.slices);
    expect(item.warnings.map((warning) => warning.code)).toEqual(['historical_playlist_metadata_partial', 'historical_track_metadata_partial']);
    expect(item.warnings[1]).toMatchObject({ count: 2 });
  });
});
