import { describe, expect, it } from 'vitest';
import { parseImportCollections } from '../../../ui/src/api/migrations.ts';

describe('an import record’s playlists as collections to pick', () => {
  it('counts the tracks when the universal model leaves track_count empty, and names playlists by the engine’s collection_ids', () => {
    const body = {
      playlists: [
        { name: 'Night Drive', track_count: null, tracks: [{ title: 'a', artist: 'b' }, { title: 'c', artist: 'd' }] },
        { id: 'pl-2', name: 'Second', track_count: 7, tracks: [] },
      ],
      collection_ids: ['0', 'pl-2'],
    };
    expect(parseImportCollections(body)).toEqual([
      { id: '0', name: 'Night Drive', trackCount: 2, tracks: [expect.objectContaining({ title: 'a', artist: 'b' }), expect.objectContaining({ title: 'c', artist: 'd' })] },
      { id: 'pl-2', name: 'Second', trackCount: 7, tracks: [] },
    ]);
  });

  it('keeps two playlists that share an id apart: each is picked by its own collection id, never recomputed', () => {
    const body = {
      playlists: [
        { id: 'dup', name: 'Twice', tracks: [{ title: 'a', artist: 'b' }] },
        { id: 'dup', name: 'Twice', tracks: [] },
        { id: null, name: 'No id', tracks: [] },
        { id: '2', name: 'Looks like an index', tracks: [] },
      ],
      collection_ids: ['dup', 'dup#1', '2#2', '2'],
    };
    const collections = parseImportCollections(body);
    expect(collections?.map((collection) => [collection.id, collection.name, collection.trackCount])).toEqual([
      ['dup', 'Twice', 1],
      ['dup#1', 'Twice', 0],
      ['2#2', 'No id', 0],
      ['2', 'Looks like an index', 0],
    ]);
  });

  it('refuses a body whose tracks lack the documented fields', () => {
    expect(parseImportCollections({ playlists: [{ name: 'Broken', tracks: [{ title: 'no artist' }] }], collection_ids: ['0'] })).toBeUndefined();
    expect(parseImportCollections({ playlists: [{ name: 'Broken', tracks: 'none' }], collection_ids: ['0'] })).toBeUndefined();
  });

  it('refuses a body without collection_ids, or with malformed ones', () => {
    const playlists = [{ id: 'a', name: 'A', tracks: [] }, { name: 'B', tracks: [] }];
    expect(parseImportCollections({ playlists, collection_ids: ['a', '1'] })).toHaveLength(2);
    expect(parseImportCollections({ playlists })).toBeUndefined();
    expect(parseImportCollections({ playlists, collection_ids: null })).toBeUndefined();
    expect(parseImportCollections({ playlists, collection_ids: 'a,1' })).toBeUndefined();
    expect(parseImportCollections({ playlists, collection_ids: ['a'] })).toBeUndefined();
    expect(parseImportCollections({ playlists, collection_ids: ['a', '1', '2'] })).toBeUndefined();
    expect(parseImportCollections({ playlists, collection_ids: ['a', 1] })).toBeUndefined();
    expect(parseImportCollections({ playlists: [...playlists, 'not a playlist'], collection_ids: ['a', '1', '2'] })).toBeUndefined();
  });
});
