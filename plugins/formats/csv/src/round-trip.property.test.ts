import { formatKit } from '@opl/plugin-sdk';
import { playlistSchema, type Playlist, type PlaylistInput, type Track, type TrackInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import plugin from './index.ts';

/** Text as it comes back from a UTF-8 file: a lone surrogate cannot be encoded and reads as U+FFFD. */
const utf8 = (value: string): string => value.toWellFormed();
/** A v1 cell: empty means absent. */
const cell = (value: string | null): string | null => (value === null || value === '' ? null : utf8(value));

/**
 * What CSV v1 carries of a track (the 14 track columns, SPEC "Export file columns"): its ids,
 * names, album, whole-second duration, ISRC, one source URI, artwork, added date, media type and
 * reason, source position; `is_local` and `is_migratable` follow from the media type and reason.
 * The ISRC is read in its compact form when it is one and the source URI is filed under its
 * provider when it names one: both through the SDK's one reading of those cells, which its own
 * tests cover.
 */
function csvTrack(track: Track, position: number, sourceProvider: string | null): TrackInput {
  const sourceUri = cell(formatKit.trackSourceUri(track, sourceProvider));
  const reference = sourceUri === null ? null : formatKit.sourceReference(sourceUri.trim());
  const reason = cell(track.unsupported_reason);
  return {
    id: cell(track.id),
    title: utf8(track.title),
    artist: utf8(track.artist),
    album: cell(track.album),
    duration_s: track.duration_s === null ? null : Math.round(track.duration_s),
    isrc: track.isrc === null ? null : (formatKit.isrcCode(utf8(track.isrc), 'isrc').value ?? null),
    artwork_uri: cell(track.artwork_uri),
    provider_uris: reference?.kind === 'provider' ? { [reference.provider]: reference.uri } : {},
    metadata: sourceUri !== null && reference?.kind !== 'provider' ? { source_uri: sourceUri } : {},
    media_type: track.media_type,
    is_local: track.media_type === 'local_file',
    is_migratable: reason === null,
    unsupported_reason: reason,
    position,
    source_position: track.source_position,
    source_item_id: cell(track.source_item_id),
    added_at: track.added_at,
  };
}

/** What CSV v1 carries of a playlist: the eight playlist columns (`artwork_uri`, else `photo`) and its tracks in order. */
function csvPlaylist(playlist: Playlist, sourceProvider: string | null): Playlist {
  const input: PlaylistInput = {
    id: cell(playlist.id),
    name: utf8(playlist.name),
    description: cell(playlist.description),
    kind: playlist.kind,
    owner_id: cell(playlist.owner_id),
    artwork_uri: cell(playlist.artwork_uri ?? playlist.photo),
    created_at: playlist.created_at,
    updated_at: playlist.updated_at,
    tracks: playlist.tracks.map((track, index) => csvTrack(track, index, sourceProvider)),
  };
  return playlistSchema.parse(input);
}

describe('CSV v1: parse(serialize(x)) keeps everything the v1 columns carry', () => {
  it('holds for several playlists, empty ones, any text (quotes, delimiters, line breaks, controls), any safe integer', async () => {
    await fc.assert(
      // An export of no playlist at all reads back as none, with a `no_rows` warning (plugin.test.ts).
      fc.asyncProperty(playlistsArbitrary.filter((list) => list.length > 0), fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }), async (playlists, provider) => {
        const { text } = await runSerialize(plugin, playlists, provider === null ? {} : { source_provider: provider });
        const parsed = await runParse(plugin, text, { filename: 'export.csv' });
        expect(parsed.issues).toEqual([]);
        expect(parsed.playlists).toEqual(playlists.map((playlist) => csvPlaylist(playlist, provider)));
      }),
      { numRuns: 200 },
    );
  });
});
