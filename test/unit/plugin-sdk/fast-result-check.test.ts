import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../plugin-sdk/src/operations.schema.ts';
import { MAX_METADATA_DEPTH, trackSchema } from '../../../plugin-sdk/src/model.schema.ts';
import { FAST_TRACK_CHECK_ENABLED, fastResult, fastTrack, MISS } from '../../../plugin-sdk/src/sandbox/fast-result-check.ts';
import { validateResult, validateResultText } from '../../../plugin-sdk/src/sandbox/sandbox.ts';
import { serializeInputOf } from '../../../plugin-sdk/src/sandbox/serialize-input.ts';

// The fast path must give zod's answer: the same acceptance and, when it accepts, the same output
// down to key order (exports write tracks in that order). Values go through JSON first, as they do
// across the sandbox boundary.

/** Mostly valid values, now and then one at or past a limit of the schema, now and then junk of any JSON type. */
const field = <T>(valid: fc.Arbitrary<T>, edges: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 60, arbitrary: valid }, { weight: 1, arbitrary: edges }, { weight: 1, arbitrary: junk });
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(-0, 0.5, -1.5, 2 ** 53, 2 ** 53 - 1, 1_000_000, 1_000_000.5, -1e-9, 1e300),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);
const shortText = fc.string({ maxLength: 12, unit: 'grapheme' });
const longTexts = (max: number) => fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), '😀'.repeat(max + 1), '\uD800'.repeat(max + 1), '');
const text = (max: number) => field(shortText, longTexts(max));
const nullableOf = <T>(valid: fc.Arbitrary<T>, edges: fc.Arbitrary<unknown>) => field(fc.oneof(valid, fc.constant(null)), edges);
const nullableText = (max: number) => nullableOf(shortText, longTexts(max));
const int = nullableOf(fc.integer(), fc.constantFrom(-0, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, 1.5, '1'));
const dateTime = nullableOf(
  fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2024-01-02T03:04:05+02:00', '2024-02-30T00:00:00Z', '2024-01-02 03:04:05Z', '2024-01-02T03:04:05', '2024-01-02T24:00:00Z', '2023-02-29T00:00:00Z', '2024-02-29T00:00:00Z'),
);
const releaseDate = nullableOf(fc.constantFrom('2019', '2019-05', '2019-05-17'), fc.constantFrom('19', '2019-5-1', '2019-05-17T00:00:00Z', ''));
const key = (max: number) => fc.oneof({ weight: 30, arbitrary: fc.string({ maxLength: 8 }) }, fc.constantFrom('k'.repeat(max), 'k'.repeat(max + 1), '😀'.repeat(max), 'constructor', '__proto__', 'toString', '0', '10'));
const credit = field(
  fc.record({ role: text(200), name: text(1_000), instrument: nullableText(10_000), uri: nullableText(10_000), extra: fc.string() }, { requiredKeys: ['role', 'name'] }),
  fc.record({ role: fc.constantFrom('', 'r'), name: fc.constantFrom('', 'n') }),
);
/** `depth` arrays inside each other (`[]` is 1 deep): a metadata value at, past and far past the model's limit. */
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
const metadataValue = fc.oneof({ weight: 40, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, { weight: 1, arbitrary: fc.constantFrom(nested(MAX_METADATA_DEPTH - 1), nested(MAX_METADATA_DEPTH), nested(2_000)) });
const record = (maxKey: number, value: fc.Arbitrary<unknown>) => field(fc.dictionary(key(maxKey), value, { maxKeys: 4 }), fc.constantFrom([], 'x'));
const boolean = field(fc.boolean(), fc.constantFrom(null, 'true', 0));

const trackFields = {
  id: nullableText(10_000),
  title: text(2_000),
  artist: text(2_000),
  artists: field(fc.array(text(1_000), { maxLength: 4 }), fc.constantFrom(Array.from({ length: 100 }, () => 'a'), Array.from({ length: 101 }, () => 'a'))),
  album: nullableText(10_000),
  duration_s: nullableOf(fc.double({ min: 0, max: 1_000_000, noNaN: true }), fc.constantFrom(-1, 1_000_001, -0)),
  isrc: nullableText(32),
  release_date: releaseDate,
  release_year: int,
  genre: nullableText(10_000),
  track_number: int,
  disc_number: int,
  explicit: nullableOf(fc.boolean(), fc.constant('yes')),
  composer: nullableText(10_000),
  credits: field(fc.array(credit, { maxLength: 3 }), fc.constant(Array.from({ length: 501 }, () => ({ role: 'r', name: 'n' })))),
  label: nullableText(10_000),
  artwork_uri: nullableText(10_000),
  provider_uris: record(100, text(2_000)),
  metadata: record(200, metadataValue),
  media_type: field(fc.constantFrom('track', 'episode', 'video', 'local_file', 'unknown'), fc.constantFrom('TRACK', 'song')),
  is_local: boolean,
  position: int,
  is_migratable: boolean,
  unsupported_reason: nullableText(10_000),
  source_item_id: nullableText(10_000),
  added_at: dateTime,
  source_position: int,
  provider_metadata: record(200, metadataValue),
  not_in_the_model: fc.jsonValue({ maxDepth: 1 }),
};
// Mostly tracks that have their two required fields, so that both answers are well exercised.
const trackArbitrary = fc.oneof({ weight: 3, arbitrary: fc.record(trackFields, { requiredKeys: ['title', 'artist'] }) }, { weight: 1, arbitrary: fc.record(trackFields, { requiredKeys: [] }) });

/** What crosses the boundary: the value as JSON text, parsed again. */
const overJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
const hasTrickyKey = (value: unknown): boolean => /"(?:constructor|__proto__)":/.test(JSON.stringify(value));

describe('fast result check', () => {
  it('is on for the current Track schema', () => {
    expect(FAST_TRACK_CHECK_ENABLED).toBe(true);
  });

  it('accepts exactly the tracks zod accepts and outputs what zod outputs, key order included', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(trackArbitrary, (raw) => {
        const value = overJson(raw);
        const zod = trackSchema.safeParse(value);
        const fast = fastTrack(value);
        if (fast === MISS) {
          // The only valid tracks left to zod are those with a key zod's plain-object test looks at.
          if (zod.success) expect(hasTrickyKey(value)).toBe(true);
          else refused += 1;
          return;
        }
        expect(zod.success).toBe(true);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
        accepted += 1;
      }),
      { numRuns: 3_000 },
    );
    // The corpus must exercise both sides, or the property says nothing.
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('gives the same result as zod for whole operation results, and zod words the refusals', () => {
    const playlist = fc.record({ id: nullableText(10_000), name: text(1_000), tracks: field(fc.array(trackArbitrary, { maxLength: 3 }), fc.constant(null)), track_count: int }, { requiredKeys: ['name'] });
    const parseResult = fc.record({ playlists: field(fc.array(playlist, { maxLength: 2 }), fc.constant({})), issues: field(fc.constant([]), fc.constant([{}])) }, { requiredKeys: [] });
    fc.assert(
      fc.property(parseResult, (raw) => {
        const json = JSON.stringify(raw);
        const zod = OPERATIONS.parse.output.safeParse(JSON.parse(json));
        if (zod.success) {
          expect(JSON.stringify(validateResultText('test.plugin', 'parse', json))).toBe(JSON.stringify(zod.data));
        } else {
          // The very message (paths included) zod's own check gives: the fast path never words a refusal.
          const words = (check: () => unknown) => {
            try {
              check();
            } catch (error) {
              return (error as Error).message;
            }
            return null;
          };
          const message = words(() => validateResultText('test.plugin', 'parse', json));
          expect(message).toMatch(/does not match the parse contract/);
          expect(message).toBe(words(() => validateResult('test.plugin', 'parse', JSON.parse(json))));
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('checks pages of items by the same rules, their limits included', () => {
    const valid = { title: 't', artist: 'a' };
    const page = (items: unknown[]) => overJson({ items, next_cursor: null });
    expect(fastResult('listPlaylistItems', page(Array.from({ length: 10_000 }, () => valid)))).not.toBe(MISS);
    expect(fastResult('listPlaylistItems', page(Array.from({ length: 10_001 }, () => valid)))).toBe(MISS);
    expect(fastResult('listLikedTracks', page([valid, { title: 't' }]))).toBe(MISS);
    const out = fastResult('listPlaylistItems', page([valid]));
    expect(JSON.stringify(out)).toBe(JSON.stringify(OPERATIONS.listPlaylistItems.output.parse(page([valid]))));
    expect(() => validateResultText('test.plugin', 'readPlaylist', '{"name":"n","tracks":[{"title":1,"artist":"a"}]}')).toThrow(/tracks\.0\.title/);
    expect(() => validateResultText('test.plugin', 'parse', 'not json')).toThrow(/is not JSON/);
  });

  it('checks a serialize input received as a structured clone as zod does, and lets zod word the refusal', () => {
    const playlist = fc.record({ id: nullableText(10_000), name: text(1_000), tracks: field(fc.array(trackArbitrary, { maxLength: 3 }), fc.constant(null)) }, { requiredKeys: ['name'] });
    const input = fc.record({ playlists: field(fc.array(playlist, { maxLength: 2 }), fc.constant({})), options: field(fc.dictionary(key(100), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), fc.constant([])) }, { requiredKeys: [] });
    let accepted = 0;
    fc.assert(
      fc.property(input, (raw) => {
        // What the plugin host receives: the engine's value through the IPC channel's structured clone.
        const value = structuredClone(overJson(raw));
        const zod = OPERATIONS.serialize.input.safeParse(value);
        if (zod.success) {
          expect(JSON.stringify(serializeInputOf(value))).toBe(JSON.stringify(zod.data));
          accepted += 1;
        } else {
          expect(() => serializeInputOf(value)).toThrow(/^invalid serialize input: /);
        }
      }),
      { numRuns: 1_000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('refuses a result whose metadata nests past the model limit, however deep, with a sentence instead of a stack overflow', () => {
    // 20,000 levels are about 40 kB of text; the engine's next JSON.stringify of them overflowed the stack.
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    for (const field of ['metadata', 'provider_metadata']) {
      const text = `{"playlists":[{"name":"P","tracks":[{"title":"t","artist":"a","${field}":${deep}}]}],"issues":[]}`;
      expect(() => validateResultText('test.plugin', 'parse', text)).toThrow(/does not match the parse contract.*metadata nests deeper than 64 levels/s);
    }
    const playlistMetadata = `{"playlists":[{"name":"P","tracks":[],"metadata":${deep}}],"issues":[]}`;
    expect(() => validateResultText('test.plugin', 'parse', playlistMetadata)).toThrow(/metadata nests deeper than 64 levels/);
    // At the limit: the metadata object is level 1, so its values may nest 63 deep.
    const atLimit = JSON.stringify({ playlists: [{ name: 'P', tracks: [{ title: 't', artist: 'a', metadata: { a: nested(MAX_METADATA_DEPTH - 1) } }] }], issues: [] });
    expect(validateResultText('test.plugin', 'parse', atLimit).playlists[0]!.tracks[0]!.metadata).toEqual({ a: nested(MAX_METADATA_DEPTH - 1) });
  });

  it('remembers only date strings zod accepted, and still agrees with zod once the memory has been emptied', () => {
    // More distinct values than the memory holds, twice over: the second pass finds some remembered, some forgotten.
    const day = (index: number) => new Date(Date.UTC(2000, 0, 1) + index * 86_400_000).toISOString();
    const values = Array.from({ length: 5_000 }, (_, index) => day(index));
    const invalid = ['2024-02-30T00:00:00Z', '2019-5-1', '2024-01-02T03:04:05'];
    for (let pass = 0; pass < 2; pass++) {
      for (const [index, value] of [...values, ...invalid].entries()) {
        const track = { title: 't', artist: 'a', added_at: value, release_date: index % 2 === 0 ? value.slice(0, 10) : value };
        const zod = trackSchema.safeParse(track);
        const fast = fastTrack(track);
        if (zod.success) expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
        else expect(fast).toBe(MISS);
      }
    }
  });

  it('leaves values that are not plain data to zod', () => {
    const track = { title: 't', artist: 'a', metadata: new Date(0) };
    expect(fastTrack(structuredClone(track))).toBe(MISS);
    expect(fastTrack(Object.assign(Object.create(null) as object, { title: 't', artist: 'a' }))).toBe(MISS);
    expect(fastTrack(structuredClone({ title: 't', artist: 'a' }))).not.toBe(MISS);
  });
});
