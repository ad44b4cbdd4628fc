// Test support: a fixed corpus of playlists for the five export writers, drawn from the model's
// fast-check arbitraries with fixed seeds (so the same playlists come back on every run), with
// the sizes that matter to a writer fed in slices: no track, one, two, odd counts, a few dozen.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { playlistSchema, type Playlist } from '@opl/plugin-sdk/schemas';
import { PLAYLIST_FIELD_ARBITRARIES, trackArbitrary } from '../../../../plugins/formats/json/src/model-arbitraries.ts';

export const WRITER_FORMATS = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;
export type WriterFormat = (typeof WRITER_FORMATS)[number];

/** Track counts of the corpus's playlists. */
export const CORPUS_SIZES = [0, 1, 2, 3, 7, 13, 40] as const;
const PER_SIZE = 4;

/** What the export service passes a writer (the JSON writer reads all of them, the others `source_provider`). */
export const SERIALIZE_OPTIONS = [
  {},
  {
    source_provider: 'spotify',
    schema_base: 'https://schemas.example.test/open-playlist/',
    warnings: [
      { code: 'unsupported_items', playlist_id: 'p1', count: 2, message: 'Two items are exported as they are.' },
      { code: 'partial_selection', playlist_id: 'p1', count: 1, message: 'Only one track "é\u2028" was selected.', extra: 'dropped' },
    ],
  },
] as const;

/** The playlist with `size` tracks, drawn with `seed`: the same one on every run. */
export function corpusPlaylist(size: number, seed: number): Playlist {
  const [fields] = fc.sample(fc.record(PLAYLIST_FIELD_ARBITRARIES), { seed, numRuns: 1 });
  const tracks = size === 0 ? [] : fc.sample(trackArbitrary, { seed: seed * 7919 + size, numRuns: size });
  return playlistSchema.parse({ ...fields, tracks });
}

/** Every corpus playlist with a stable name for its digest. */
export function corpus(): { key: string; playlist: Playlist }[] {
  return CORPUS_SIZES.flatMap((size) => Array.from({ length: PER_SIZE }, (_, index) => ({ key: `${size}-${index}`, playlist: corpusPlaylist(size, 1_000 + size * 31 + index) })));
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
