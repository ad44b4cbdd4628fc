import { FORMAT_OPERATIONS, type Playlist } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import plugin from './index.ts';

/**
 * What M3U8 carries of a playlist: every field (the `#OPL-*` directives, README), except that a
 * track's `position` is its place in the file (the reader numbers entries from 0) and values pass
 * through JSON on the wire (no -0, key order as written).
 */
function m3uCarried(playlist: Playlist): unknown {
  return JSON.parse(JSON.stringify({ ...playlist, tracks: playlist.tracks.map((track, index) => ({ ...track, position: index })) })) as unknown;
}

/** Text with the characters that matter here: line breaks, backslashes, dashes, `#`, commas, quotes, Unicode. */
const text = fc.string({ unit: fc.constantFrom('a', 'Б', '名', '🎵', ' ', '-', ' - ', '\\', '\\n', '\n', '\r', '\u2028', '\u0085', '#', ',', '"', ':', '=', 'é', '\t'), maxLength: 12 });
const nullableText = fc.option(text, { nil: null });
const dateTime = fc.constantFrom('2024-01-01T00:00:00Z', '2023-12-31T23:59:59.5+09:00');

const track = fc.record(
  {
    id: nullableText,
    title: text,
    artist: text,
    album: nullableText,
    duration_s: fc.option(fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 100_000, noNaN: true })), { nil: null }),
    isrc: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
    explicit: fc.option(fc.boolean(), { nil: null }),
    track_number: fc.option(fc.integer({ min: -5, max: 500 }), { nil: null }),
    provider_uris: fc.dictionary(fc.constantFrom('spotify', 'tidal', 'deezer', 'yt'), fc.constantFrom('spotify:track:abc', 'tidal:track:12', 'deezer:track:9', 'https://x.example/a b', 'yt:v:1')),
    // JSON has no -0, which fc.jsonValue can produce: metadata values are normalised through JSON.
    metadata: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown), { maxKeys: 2 }),
    media_type: fc.constantFrom('track', 'episode', 'video', 'local_file', 'unknown'),
    is_local: fc.boolean(),
    is_migratable: fc.boolean(),
    unsupported_reason: nullableText,
    added_at: fc.option(dateTime, { nil: null }),
  },
  { requiredKeys: ['title', 'artist'] },
);

const playlist = fc.record(
  { id: nullableText, name: text, description: nullableText, kind: fc.constantFrom('PLAYLIST', 'LIKED_TRACKS'), created_at: fc.option(dateTime, { nil: null }), tracks: fc.array(track, { maxLength: 5 }) },
  { requiredKeys: ['name', 'tracks'] },
);

describe('round trip (property)', () => {
  it('parse(serialize(x)) = x for anything M3U8 carries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(playlist, { maxLength: 3 }), async (playlists) => {
        const input = FORMAT_OPERATIONS.serialize.input.parse({ playlists });
        const out = (await runSerialize(plugin, playlists)).text;
        const parsed = await runParse(plugin, out, { filename: 'f.m3u8' });
        expect(parsed.issues).toEqual([]);
        // JSON normalises -0 and key order the way the wire does.
        const expected = JSON.parse(JSON.stringify(input.playlists.map((p) => ({ ...p, tracks: p.tracks.map((t, index) => ({ ...t, position: index })) })))) as unknown;
        expect(JSON.parse(JSON.stringify(parsed.playlists))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('parse(serialize(x)) = x over the whole model: artists, credits, release dates, disc numbers, artwork, source positions, provider metadata, the largest safe integers', async () => {
    await fc.assert(
      fc.asyncProperty(playlistsArbitrary, fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }), async (playlists, provider) => {
        const { text } = await runSerialize(plugin, playlists, provider === null ? {} : { source_provider: provider });
        const parsed = await runParse(plugin, text, { filename: 'f.m3u8' });
        expect(parsed.issues).toEqual([]);
        expect(JSON.parse(JSON.stringify(parsed.playlists))).toEqual(playlists.map(m3uCarried));
      }),
      { numRuns: 200 },
    );
  });
});
