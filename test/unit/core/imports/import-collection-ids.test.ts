import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCollectionIds, MAX_COLLECTION_ID_LENGTH } from '../../../../core/services/imports/index.ts';

const of = (...ids: (string | null)[]) => importCollectionIds(ids.map((id) => ({ id })));

describe('importCollectionIds', () => {
  it("names a playlist by its own id, else by its 0-based index", () => {
    expect(of('pl-1', null, 'pl-3', null)).toEqual(['pl-1', '1', 'pl-3', '3']);
    expect(of()).toEqual([]);
  });

  it('the first of two playlists sharing an id keeps it; the later one is named by id and index', () => {
    expect(of('dup', 'other', 'dup', null)).toEqual(['dup', 'other', 'dup#2', '3']);
    expect(of('dup', 'dup', 'dup')).toEqual(['dup', 'dup#1', 'dup#2']);
  });

  it("a real id equal to an id-less playlist's index keeps it; the id-less one gets a free name", () => {
    // "0" is the own id of the second playlist: it keeps it, so the first (no id) cannot be "0".
    expect(of(null, '0')).toEqual(['0#2', '0']);
    // Even the fallback may be someone's real id: count on until a name is free.
    expect(of(null, '0', '0#2', '0#2#2')).toEqual(['0#3', '0', '0#2', '0#2#2']);
    expect(of('a', 'a#1', 'a', 'a#2#2')).toEqual(['a', 'a#1', 'a#2', 'a#2#2']);
    expect(of('a', 'a', 'a#1')).toEqual(['a', 'a#1#2', 'a#1']);
  });

  it('an own id no selection could name (empty, padded with spaces, too long) counts as none', () => {
    const long = 'x'.repeat(MAX_COLLECTION_ID_LENGTH);
    expect(of('', ' a', 'b ', long, 'ok')).toEqual(['0', '1', '2', '3', 'ok']);
    // Every id given can be sent back as a selection id: trimmed, 1 to 500 characters.
    const ids = of(long, long, 'y'.repeat(MAX_COLLECTION_ID_LENGTH - 20), 'y'.repeat(MAX_COLLECTION_ID_LENGTH - 20), '\t');
    for (const id of ids) expect(id.trim() === id && id.length >= 1 && id.length <= MAX_COLLECTION_ID_LENGTH, id.slice(0, 30)).toBe(true);
  });

  /** What importCollectionIds takes as a playlist's own id. */
  const nameable = (id: string | null) => id !== null && id !== '' && id.trim() === id && id.length <= MAX_COLLECTION_ID_LENGTH - 20;

  const playlists = fc.array(
    fc.record({ id: fc.option(fc.oneof(fc.constantFrom('0', '1', '2', 'a', 'a#1', 'a#2', '1#2', '0#2', '2#2'), fc.string({ maxLength: 4 })), { nil: null }) }),
    { maxLength: 30 },
  );

  it('always gives every playlist a distinct id, one per playlist', () => {
    fc.assert(
      fc.property(playlists, (list) => {
        const ids = importCollectionIds(list);
        expect(ids).toHaveLength(list.length);
        expect(new Set(ids).size).toBe(list.length);
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic: the same record gives the same ids', () => {
    fc.assert(
      fc.property(playlists, (list) => {
        expect(importCollectionIds(list.map((playlist) => ({ ...playlist })))).toEqual(importCollectionIds(list));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps every id no other playlist has, and the first playlist's of each shared id", () => {
    fc.assert(
      fc.property(playlists, (list) => {
        const ids = importCollectionIds(list);
        for (const [index, { id }] of list.entries()) {
          if (!nameable(id)) continue;
          const first = list.findIndex((playlist) => playlist.id === id) === index;
          if (first) expect(ids[index]).toBe(id);
          else expect(ids[index]).not.toBe(id);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names an id-less playlist by its index whenever no own id takes that', () => {
    fc.assert(
      fc.property(playlists, (list) => {
        const ids = importCollectionIds(list);
        const own = new Set(list.flatMap((playlist) => (nameable(playlist.id) ? [playlist.id!] : [])));
        for (const [index, { id }] of list.entries()) {
          if (!nameable(id) && !own.has(String(index))) expect(ids[index]).toBe(String(index));
        }
      }),
      { numRuns: 500 },
    );
  });
});
