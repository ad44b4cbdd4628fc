import fc from 'fast-check';
import { playlistSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { compactPlaylists, expandPlaylists } from '../../../../core/services/imports/stored-playlists.ts';
import { playlistsArbitrary } from '../../../../plugins/formats/json/src/model-arbitraries.ts';

/** What PostgreSQL hands back: the stored value through JSON. */
const throughJson = (value: unknown): unknown[] => JSON.parse(JSON.stringify(value)) as unknown[];

describe('stored playlists of an import record', () => {
  it('read back exactly as they were, down to key order, whatever the playlists', () => {
    fc.assert(
      fc.property(playlistsArbitrary, (playlists) => {
        const model = throughJson(playlists).map((playlist) => playlistSchema.parse(playlist));
        expect(JSON.stringify(expandPlaylists(throughJson(compactPlaylists(model))))).toBe(JSON.stringify(model));
      }),
      { numRuns: 300 },
    );
  });

  it('leave out what is a default, and keep every value that is not', () => {
    const playlist = playlistSchema.parse({ name: 'Road trip', tracks: [{ title: 'Eple', artist: 'Röyksopp', is_local: true, is_migratable: false, explicit: false, position: 0, metadata: { source: 'm3u' } }] });
    expect(compactPlaylists([playlist])).toEqual([expect.objectContaining({ tracks: [{ title: 'Eple', artist: 'Röyksopp', explicit: false, metadata: { source: 'm3u' }, is_local: true, position: 0, is_migratable: false }] })]);
    // A record stored in full, before compaction, reads the same.
    expect(expandPlaylists(throughJson([playlist]))).toEqual([playlist]);
  });
});
