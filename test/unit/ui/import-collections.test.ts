import { describe, expect, it } from 'vitest';
import { parseImportCollections } from '../../../ui/src/api/migrations.ts';

describe('an import record’s playlists as collections to pick', () => {
  it('counts the tracks when the universal model leaves track_count empty, and names playlists without ids by index', () => {
    const body = {
      playlists: [
        { name: 'Night Drive', track_count: null, tracks: [{ title: 'a', artist: 'b' }, { title: 'c', artist: 'd' }] },
        { id: 'pl-2', name: 'Second', track_count: 7, tracks: [] },
      ],
    };
    expect(parseImportCollections(body)).toEqual([
      { id: '0', name: 'Night Drive', trackCount: 2, tracks: [expect.objectContaining({ title: 'a', artist: 'b' }), expect.objectContaining({ title: 'c', artist: 'd' })] },
      { id: 'pl-2', name: 'Second', trackCount: 7, tracks: [] },
    ]);
  });

  it('refuses a body whose tracks lack the documented fields', () => {
    expect(parseImportCollections({ playlists: [{ name: 'Broken', tracks: [{ title: 'no artist' }] }] })).toBeUndefined();
    expect(parseImportCollections({ playlists: [{ name: 'Broken', tracks: 'none' }] })).toBeUndefined();
  });
});
