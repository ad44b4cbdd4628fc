import { describe, expect, it } from 'vitest';
import { columnsOfCompact, decodeTrackDigest, DIGEST_LOCAL, DIGEST_MIGRATABLE, encodeTrackDigest } from '../../../../core/services/playlists/track-digest.ts';

/** The cached playlist's compact track digest the Library workspace reads instead of whole track records. */

describe('track digest', () => {
  it('keeps what the workspace compares of each track, in order', () => {
    const digest = encodeTrackDigest([
      { id: 't1', isrc: 'us-abc-12-34567' },
      { id: 't2', isrc: null, is_migratable: false },
      { id: 'file:///home/me/song.mp3', isrc: 'GBXYZ1234567', is_local: true, is_migratable: false },
      { id: null, isrc: 'not an isrc' },
      { id: 'odd\tid%\nwith breaks', isrc: ' fr-z03-14-00123 ' },
    ]);
    expect(decodeTrackDigest(digest)).toEqual({
      ids: ['t1', 't2', null, null, 'odd\tid%\nwith breaks'],
      // Normalized as the matcher compares them; what is no ISRC is none.
      isrcs: ['USABC1234567', null, 'GBXYZ1234567', null, 'FRZ031400123'],
      flags: new Uint8Array([DIGEST_MIGRATABLE, 0, DIGEST_LOCAL, DIGEST_MIGRATABLE, DIGEST_MIGRATABLE]),
    });
    // A local file's id (it can be a path) is not written at all.
    expect(digest).not.toContain('/home/me');
  });

  it('gives the same columns as the compact rows read from a cache without a digest', () => {
    const tracks = [
      { id: 'a', isrc: 'usabc1234567', is_migratable: true, is_local: false },
      { id: 'b', isrc: null, is_migratable: false, is_local: false },
      { id: 'c', isrc: 'GBXYZ1234567', is_migratable: false, is_local: true },
    ];
    expect(decodeTrackDigest(encodeTrackDigest(tracks))).toEqual(columnsOfCompact(tracks.map((track) => [track.id, track.isrc, track.is_migratable, track.is_local] as const)));
  });

  it('an empty playlist has an empty digest, and another format version is not read', () => {
    expect(decodeTrackDigest(encodeTrackDigest([]))).toEqual({ ids: [], isrcs: [], flags: new Uint8Array(0) });
    expect(decodeTrackDigest('d0\nt1\t\t1')).toBeNull();
    expect(decodeTrackDigest('d1\nbroken line')).toBeNull();
  });
});
