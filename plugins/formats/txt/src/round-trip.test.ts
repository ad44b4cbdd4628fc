import { formatKit } from '@opl/plugin-sdk';
import { playlistSchema, type Playlist, type PlaylistInput, type Track, type TrackInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import { sanitizeCell } from './cell-sanitizer.ts';
import plugin from './index.ts';
import { unwrapCell, wrapCell } from './tab-cells.ts';
import { parseTxt } from './txt-parser.ts';
import { serializeOptions, serializeTxt } from './txt-serializer.ts';

/** Strings built from the characters that matter to TXT cells: quotes, commas, tabs, formula starters, apostrophes. */
const trickyText = fc.string({
  unit: fc.constantFrom('"', ',', '\t', '=', '+', '-', '@', "'", ' ', 'a', 'Z', '1', ';', '\n', 'é', '😀'),
  minLength: 1,
  maxLength: 24,
});

function roundTrip(input: PlaylistInput) {
  const text = [...serializeTxt([playlistSchema.parse(input)], serializeOptions({}))].join('');
  return parseTxt(text, 'x.txt');
}

describe('TXT v1 round trip', () => {
  it('reads back exactly the values written: quotes, commas and formula starters included', () => {
    const { playlists, issues } = roundTrip({
      name: '"Summer, baby"',
      description: '"Love, Actually"',
      tracks: [
        { title: '"Hello, Goodbye"', artist: '"=1, 2"', album: '"Heroes"' },
        { title: 'He said ""hi""', artist: '"Weird Al" Yankovic', album: '"a,b' },
        { title: '"=SUM(A1)"', artist: "'\"x, y\"", album: '"' },
      ],
    });
    expect(issues).toEqual([]);
    expect(playlists[0]).toMatchObject({ name: '"Summer, baby"', description: '"Love, Actually"' });
    expect(playlists[0]!.tracks!.map((track) => [track.title, track.artist, track.album])).toEqual([
      ['"Hello, Goodbye"', '"=1, 2"', '"Heroes"'],
      ['He said ""hi""', '"Weird Al" Yankovic', '"a,b'],
      ['"=SUM(A1)"', "'\"x, y\"", '"'],
    ]);
  });

  it('writes a cell starting with a quote as Excel does, and reads it back', () => {
    expect(wrapCell('"Summer, baby"')).toBe('"""Summer, baby"""');
    expect(wrapCell('Summer, "baby"')).toBe('Summer, "baby"');
    fc.assert(fc.property(trickyText, (value) => unwrapCell(wrapCell(value)) === value));
  });

  it('round-trips arbitrary names, titles, artists and albums (tabs and line breaks become spaces)', () => {
    fc.assert(
      fc.property(trickyText, trickyText, trickyText, trickyText, (name, title, artist, album) => {
        const { playlists, issues } = roundTrip({ name, tracks: [{ title, artist, album }] });
        expect(issues).toEqual([]);
        expect(playlists).toHaveLength(1);
        expect(playlists[0]!.name).toBe(sanitizeCell(name));
        expect(playlists[0]!.tracks).toMatchObject([{ title: sanitizeCell(title), artist: sanitizeCell(artist), album: sanitizeCell(album) }]);
      }),
      { numRuns: 300 },
    );
  });
});

/** Text as TXT v1 carries it: line breaks and tabs become spaces (cell-sanitizer.ts), a lone surrogate (no UTF-8) U+FFFD. */
const txtText = (value: string): string => sanitizeCell(value).toWellFormed();
/** A v1 cell: empty means absent. */
const txtCell = (value: string | null): string | null => (value === null || value === '' ? null : txtText(value));

/**
 * What TXT v1 carries of a track: the 14 track columns of the v1 export (ids, names, album,
 * whole-second duration, ISRC, one source URI, artwork, added date, media type and reason, source
 * position), `is_local` and `is_migratable` following from media type and reason. The ISRC and
 * the source URI are read through the SDK's one reading of those cells, which its own tests cover.
 */
function txtTrack(track: Track, position: number, sourceProvider: string | null): TrackInput {
  const sourceUri = txtCell(formatKit.trackSourceUri(track, sourceProvider));
  const reference = sourceUri === null ? null : formatKit.sourceReference(sourceUri.trim());
  const reason = txtCell(track.unsupported_reason);
  return {
    id: txtCell(track.id),
    title: txtText(track.title),
    artist: txtText(track.artist),
    album: txtCell(track.album),
    duration_s: track.duration_s === null ? null : Math.round(track.duration_s),
    isrc: track.isrc === null ? null : (formatKit.isrcCode(txtText(track.isrc), 'isrc').value ?? null),
    artwork_uri: txtCell(track.artwork_uri),
    provider_uris: reference?.kind === 'provider' ? { [reference.provider]: reference.uri } : {},
    metadata: sourceUri !== null && reference?.kind !== 'provider' ? { source_uri: sourceUri } : {},
    media_type: track.media_type,
    is_local: track.media_type === 'local_file',
    is_migratable: reason === null,
    unsupported_reason: reason,
    position,
    source_position: track.source_position,
    source_item_id: txtCell(track.source_item_id),
    added_at: track.added_at,
  };
}

/** What TXT v1 carries of a playlist: the eight playlist columns (`artwork_uri`, else `photo`) and its tracks in order. */
function txtPlaylist(playlist: Playlist, sourceProvider: string | null): Playlist {
  return playlistSchema.parse({
    id: txtCell(playlist.id),
    name: txtText(playlist.name),
    description: txtCell(playlist.description),
    kind: playlist.kind,
    owner_id: txtCell(playlist.owner_id),
    artwork_uri: txtCell(playlist.artwork_uri ?? playlist.photo),
    created_at: playlist.created_at,
    updated_at: playlist.updated_at,
    tracks: playlist.tracks.map((track, index) => txtTrack(track, index, sourceProvider)),
  } satisfies PlaylistInput);
}

describe('TXT v1 round trip of the whole model (property)', () => {
  it('keeps every v1 column: several playlists, empty ones, any text and control characters, any safe integer', async () => {
    await fc.assert(
      // An export of no playlist at all reads back as none, with a `no_rows` warning.
      fc.asyncProperty(playlistsArbitrary.filter((list) => list.length > 0), fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }), async (playlists, provider) => {
        const { text } = await runSerialize(plugin, playlists, provider === null ? {} : { source_provider: provider });
        const parsed = await runParse(plugin, text, { filename: 'export.txt' });
        expect(parsed.issues).toEqual([]);
        expect(parsed.playlists).toEqual(playlists.map((playlist) => txtPlaylist(playlist, provider)));
      }),
      { numRuns: 200 },
    );
  });
});
