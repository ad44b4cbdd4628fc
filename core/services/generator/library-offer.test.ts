import { trackSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { generatorControlsSchema } from './generation-request.ts';
import { libraryChoicesJsonSchema, readLibraryChoices } from './library-choices.ts';
import { LIBRARY_OFFER, libraryKey, offeredLines, sampleLibrary, type LibraryTrack } from './library-offer.ts';

const controls = (change: Record<string, unknown> = {}) => generatorControlsSchema.parse(change);
const song = (n: number, extra: Record<string, unknown> = {}): LibraryTrack => ({
  provider: 'spotify',
  origin: 'connection',
  track: trackSchema.parse({ id: `sp${n}`, title: `Song ${n}`, artist: `Artist ${n % 7}`, duration_s: 200 + n, provider_uris: { spotify: `spotify:track:sp${n}` }, ...extra }),
});
const library = Array.from({ length: 500 }, (_, n) => song(n));

describe('sampleLibrary', () => {
  it('offers at most the cap, with local ids t1…tN and no provider id, the same sample for the same seed', () => {
    const offered = sampleLibrary(library, controls(), 42);
    expect(offered).toHaveLength(LIBRARY_OFFER.maxOffered);
    expect(offered.map((entry) => entry.id)).toEqual(Array.from({ length: LIBRARY_OFFER.maxOffered }, (_, index) => `t${index + 1}`));
    expect(sampleLibrary(library, controls(), 42).map((entry) => entry.title)).toEqual(offered.map((entry) => entry.title));
    expect(sampleLibrary(library, controls(), 43).map((entry) => entry.title)).not.toEqual(offered.map((entry) => entry.title));
    const lines = offeredLines(offered);
    expect(lines.split('\n')).toHaveLength(LIBRARY_OFFER.maxOffered);
    expect(lines).not.toMatch(/spotify|sp\d/);
    expect(sampleLibrary(library, controls(), 42, { cap: 5 })).toHaveLength(5);
    expect(sampleLibrary(library, controls(), 42, { cap: 10_000 })).toHaveLength(LIBRARY_OFFER.maxOffered);
  });

  it('keeps one copy of a song (by ISRC, else title and artist), preferring the copy with ids', () => {
    const bare = { provider: 'import', origin: 'import' as const, track: trackSchema.parse({ title: 'Song 1', artist: 'Artist 1' }) };
    const sameIsrcA = song(900, { isrc: 'USAAA2400001' });
    const sameIsrcB = { ...song(901, { isrc: 'US-AAA-24-00001' }), provider: 'tidal' };
    const offered = sampleLibrary([bare, song(1), sameIsrcA, sameIsrcB], controls(), 1);
    expect(offered).toHaveLength(2);
    expect(offered.find((entry) => entry.title === 'Song 1')!.library.track.id).toBe('sp1');
    expect(libraryKey(sameIsrcA.track)).toBe(libraryKey(sameIsrcB.track));
  });

  it('honours the explicit preference, leaves out excluded songs, and puts seed artists and songs first', () => {
    const mixed = [song(1, { explicit: true }), song(2, { explicit: false }), song(3)];
    expect(sampleLibrary(mixed, controls({ explicit: 'exclude' }), 1).map((entry) => entry.title).sort()).toEqual(['Song 2', 'Song 3']);
    expect(sampleLibrary(mixed, controls({ explicit: 'only' }), 1).map((entry) => entry.title)).toEqual(['Song 1']);
    expect(sampleLibrary(mixed, controls(), 1, { exclude: new Set([libraryKey(mixed[0]!.track)]) }).map((entry) => entry.title).sort()).toEqual(['Song 2', 'Song 3']);
    // Artist 3 has 71 songs (n % 7 = 3); Song 11 is Artist 4's, Song 12 Artist 5's.
    const seeded = sampleLibrary(library, controls({ seed_artists: ['artist 3'], seed_tracks: ['Song 11', 'Song 12 by Artist 5'] }), 7, { cap: 80 });
    expect(seeded.slice(0, 73).every((entry) => entry.artist === 'Artist 3' || entry.title === 'Song 11' || entry.title === 'Song 12')).toBe(true);
    expect(seeded.slice(73).some((entry) => entry.artist === 'Artist 3' || /^Song 1[12]$/.test(entry.title))).toBe(false);
  });

  it('finds a seed song whose kept copy carries a version suffix the listener did not type', () => {
    const remastered = [...library.slice(0, 300), song(900, { title: 'Velvet Moon - Remastered 2011' }), song(901, { title: 'Velvet Moon Rising' })];
    for (const seed of [1, 2, 3, 4, 5]) {
      const seeded = sampleLibrary(remastered, controls({ seed_tracks: ['Velvet Moon'] }), seed, { cap: 2 });
      expect(seeded[0]!.title).toBe('Velvet Moon - Remastered 2011');
      // Another song starting with the same words is not that song: it keeps its sampled place.
      const unseeded = sampleLibrary(remastered.filter((entry) => entry.track.title !== 'Velvet Moon - Remastered 2011'), controls(), seed, { cap: 1 });
      expect(seeded[1]!.title).toBe(unseeded[0]!.title);
    }
  });
});

describe('readLibraryChoices', () => {
  const offered = new Map(sampleLibrary(library.slice(0, 5), controls(), 1).map((entry) => [entry.id, entry]));

  it('constrains the schema to the offered ids and the count', () => {
    const schema = libraryChoicesJsonSchema([...offered.keys()], 3) as { properties: { tracks: { maxItems: number; items: { properties: { id: { enum: string[] } } } } } };
    expect(schema.properties.tracks.maxItems).toBe(3);
    expect(schema.properties.tracks.items.properties.id.enum).toEqual(['t1', 't2', 't3', 't4', 't5']);
  });

  it('keeps offered ids, discards anything else as a slot with the reason (never echoing it), and caps the count', () => {
    const read = readLibraryChoices(
      { tracks: [{ id: 't2', reason: 'calm' }, { id: 't99' }, { id: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, { id: 'https://evil.example/x' }, 't2', 't3', { id: 't4' }] },
      offered,
      5,
    )!;
    expect(read.slots.map((slot) => (slot.kind === 'chosen' ? slot.choice.offered.id : slot.why))).toEqual(['t2', 'an id that was not offered', 'a provider id', 'a URL', 't3']);
    expect(read.notes.map((note) => note.code)).toEqual(['id_not_offered', 'id_not_offered', 'id_not_offered', 'duplicate_intent', 'extra_items_dropped']);
    expect(JSON.stringify(read.notes)).not.toMatch(/evil|4uLU6|t99/);
    expect(readLibraryChoices({ songs: [] }, offered, 3)).toBeNull();
    expect(readLibraryChoices(['t1', 't5'], offered, 3)!.slots.map((slot) => slot.kind)).toEqual(['chosen', 'chosen']);
  });
});
