import { playlistSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../core/services/exports/export-error.ts';
import { selectedPlaylistIds, selectTracks } from '../../../core/services/exports/export-source.ts';
import { exportWarnings } from '../../../core/services/exports/export-warnings.ts';

const playlist = playlistSchema.parse({
  id: 'p1',
  name: 'Picks',
  tracks: [
    { id: 't1', title: 'One', artist: 'A', source_item_id: 'e1' },
    { id: 't2', title: 'Two', artist: 'A', source_item_id: 'e2' },
    { id: 't1', title: 'One again', artist: 'A', source_item_id: 'e3' },
    { id: null, title: 'Local', artist: 'B', source_item_id: null, media_type: 'local_file', is_local: true },
  ],
});

describe('export track selection', () => {
  it('without keys: the playlist unchanged and not partial', () => {
    expect(selectTracks('p1', playlist, undefined)).toEqual({ playlist, partial: null });
  });

  it('keys are track ids, entry ids or pos:<n>; playlist order is kept whatever the key order', () => {
    const { playlist: picked, partial } = selectTracks('p1', playlist, ['pos:3', 'e2']);
    expect(picked.tracks.map((track) => track.title)).toEqual(['Two', 'Local']);
    expect(picked.track_count).toBe(2);
    expect(partial).toEqual({ selected: 2, total: 4 });
  });

  it('a track id repeated in the playlist selects every entry of it', () => {
    expect(selectTracks('p1', playlist, ['t1']).playlist.tracks.map((track) => track.title)).toEqual(['One', 'One again']);
  });

  it('an empty key list selects nothing: partial, and then empty_playlist', () => {
    const selected = { id: 'p1', ...selectTracks('p1', playlist, []) };
    expect(selected.playlist.tracks).toEqual([]);
    expect(exportWarnings([selected], 'csv').map((warning) => warning.code)).toEqual(['partial_selection', 'empty_playlist']);
  });

  it('a selection of every track is the whole playlist, not partial (whatever keys name them)', () => {
    expect(selectTracks('p1', playlist, ['e2', 't1', 'pos:3'])).toEqual({ playlist, partial: null });
    const empty = playlistSchema.parse({ id: 'p0', name: 'Nothing yet', tracks: [] });
    const selected = { id: 'p0', ...selectTracks('p0', empty, []) };
    expect(selected.partial).toBeNull();
    expect(exportWarnings([selected], 'csv').map((warning) => warning.code)).toEqual(['empty_playlist']);
  });

  it('unknown keys are refused with invalid_selection naming them', () => {
    let error: unknown;
    try {
      selectTracks('p1', playlist, ['t2', 'nope', 'pos:9']);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).reason).toBe('invalid_selection');
    expect((error as ExportError).message).toContain('"nope", "pos:9"');
    expect((error as ExportError).extensions).toMatchObject({ playlist_id: 'p1', missing_track_ids: ['nope', 'pos:9'] });
  });

  it('the selected playlists: listed ones in order, then those named only in tracks, each once', () => {
    expect(selectedPlaylistIds({ playlist_ids: ['b', 'a'], tracks: { c: ['x'], a: ['y'] } })).toEqual(['b', 'a', 'c']);
    expect(selectedPlaylistIds({ playlist_ids: [] })).toEqual([]);
  });
});
