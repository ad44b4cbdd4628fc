// Test support: fast-check arbitraries for the universal model, one per field of the zod shapes
// (model.schema.ts). model-arbitraries.test.ts fails when the model gains a field this misses.
import fc from 'fast-check';
import { MEDIA_TYPES, PLAYLIST_KINDS, playlistSchema, type Playlist } from '@opl/plugin-sdk/schemas';

/** Any Unicode: astral code points, combining marks, controls, lone surrogates, the empty string. */
const anyText = (maxLength: number, minLength = 0): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', minLength, maxLength: Math.min(maxLength, 24) }),
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 12) }),
    fc.string({ unit: fc.constantFrom('\uD83C', '\uDFB5', '\u0000', '\n', '"', '\\', '=', '\u2028', 'é'), minLength, maxLength: Math.min(maxLength, 8) }),
  ).filter((text) => text.length >= minLength && text.length <= maxLength);
const nullable = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arbitrary, { nil: null, freq: 3 });
const nullableText = nullable(anyText(10_000));
const nullableInt = nullable(fc.maxSafeInteger());
const key = (maxLength: number) => anyText(maxLength).filter((name) => name !== '__proto__');
const providerUris = fc.dictionary(key(100), anyText(2_000), { maxKeys: 3, noNullPrototype: true });
// Metadata is JSON data, and JSON has no -0 (fc.jsonValue can produce it): normalise through JSON.
const jsonData = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const metadata = fc.dictionary(key(200), jsonData, { maxKeys: 3, noNullPrototype: true });
const pad = (value: number, width: number): string => String(value).padStart(width, '0');
const releaseDate = fc.oneof(
  fc.integer({ min: 0, max: 9999 }).map((year) => pad(year, 4)),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 })).map(([year, month]) => `${pad(year, 4)}-${pad(month, 2)}`),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
);
const dateTime = fc
  .tuple(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), fc.constantFrom('Z', '+09:00', '-05:30', '+00:00'), fc.boolean())
  .map(([date, offset, millis]) => {
    const iso = date.toISOString();
    return `${millis ? iso.slice(0, -1) : iso.slice(0, 19)}${offset}`;
  });
const credit = fc.record({ role: anyText(200, 1), name: anyText(1_000, 1), instrument: nullableText, uri: nullableText });

export const TRACK_FIELD_ARBITRARIES = {
  id: nullableText,
  title: anyText(2_000),
  artist: anyText(2_000),
  artists: fc.array(anyText(1_000), { maxLength: 4 }),
  album: nullableText,
  duration_s: nullable(fc.oneof(fc.double({ min: 0, max: 1_000_000, noNaN: true }), fc.integer({ min: 0, max: 1_000_000 }))),
  isrc: nullable(anyText(32)),
  release_date: nullable(releaseDate),
  release_year: nullableInt,
  genre: nullableText,
  track_number: nullableInt,
  disc_number: nullableInt,
  explicit: nullable(fc.boolean()),
  composer: nullableText,
  credits: fc.array(credit, { maxLength: 3 }),
  label: nullableText,
  artwork_uri: nullableText,
  provider_uris: providerUris,
  metadata,
  media_type: fc.constantFrom(...MEDIA_TYPES),
  is_local: fc.boolean(),
  position: nullableInt,
  is_migratable: fc.boolean(),
  unsupported_reason: nullableText,
  source_item_id: nullableText,
  added_at: nullable(dateTime),
  source_position: nullableInt,
  provider_metadata: metadata,
};

export const trackArbitrary = fc.record(TRACK_FIELD_ARBITRARIES);

export const PLAYLIST_FIELD_ARBITRARIES = {
  id: nullableText,
  name: anyText(1_000),
  description: nullableText,
  photo: nullableText,
  tracks: fc.array(trackArbitrary, { maxLength: 6 }),
  track_count: nullable(fc.nat()),
  owner_id: nullableText,
  owner_name: nullableText,
  created_at: nullable(dateTime),
  updated_at: nullable(dateTime),
  kind: fc.constantFrom(...PLAYLIST_KINDS),
  artwork_uri: nullableText,
  snapshot_id: nullableText,
  is_owned: nullable(fc.boolean()),
  is_followed: nullable(fc.boolean()),
  collaborative: nullable(fc.boolean()),
  provider_uris: providerUris,
  metadata,
};

/** Playlists exactly as the engine holds them (validated, every field present). */
export const playlistsArbitrary: fc.Arbitrary<Playlist[]> = fc
  .array(fc.record(PLAYLIST_FIELD_ARBITRARIES), { maxLength: 4 })
  .map((playlists) => playlists.map((playlist) => playlistSchema.parse(playlist)));
