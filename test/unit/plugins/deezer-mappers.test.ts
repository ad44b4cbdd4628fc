import { describe, expect, it } from 'vitest';
import { mapAlbum, mapArtist } from '../../../plugins/providers/deezer/src/library-mapper.ts';
import { mapPlaylist } from '../../../plugins/providers/deezer/src/playlist-mapper.ts';
import { EPISODE_REASON, mapListedTrack, mapTrack, releaseDate } from '../../../plugins/providers/deezer/src/track-mapper.ts';

/** Deezer JSON → universal model, for the three track forms, playlists, albums and artists. */

const fullTrack = {
  id: 3135556,
  readable: true,
  title: 'Harder, Better, Faster, Stronger (Live)',
  title_short: 'Harder, Better, Faster, Stronger',
  title_version: '(Live)',
  isrc: 'gbduw0000059',
  link: 'https://www.deezer.com/track/3135556',
  duration: 224,
  track_position: 4,
  disk_number: 1,
  release_date: '2001-03-07',
  explicit_lyrics: false,
  contributors: [
    { id: 27, name: 'Daft Punk', role: 'Main' },
    { id: 28, name: 'Guest Singer', role: 'Featured' },
  ],
  artist: { id: 27, name: 'Daft Punk' },
  album: { id: 302127, title: 'Discovery', cover_small: 'https://img/s.jpg', cover_xl: 'https://img/xl.jpg', release_date: '2001-03-07' },
  type: 'track',
};

describe('tracks', () => {
  it('maps the full track with ISRC, numbers, release date and every contributor', () => {
    expect(mapTrack(fullTrack)).toMatchObject({
      id: '3135556',
      title: 'Harder, Better, Faster, Stronger (Live)',
      artist: 'Daft Punk, Guest Singer',
      artists: ['Daft Punk', 'Guest Singer'],
      album: 'Discovery',
      duration_s: 224,
      isrc: 'GBDUW0000059',
      release_date: '2001-03-07',
      release_year: 2001,
      track_number: 4,
      disc_number: 1,
      explicit: false,
      artwork_uri: 'https://img/xl.jpg',
      provider_uris: { deezer: 'deezer:track:3135556' },
      metadata: { deezer_url: 'https://www.deezer.com/track/3135556', deezer_album_uri: 'deezer:album:302127', deezer_artist_uris: ['deezer:artist:27', 'deezer:artist:28'], title_version: '(Live)' },
      provider_metadata: { readable: true },
      media_type: 'track',
    });
  });

  it('maps the listed form (no numbers, main artist only) with its position and added time', () => {
    const { contributors: _contributors, track_position: _position, disk_number: _disk, release_date: _date, ...listed } = fullTrack;
    const track = mapListedTrack({ ...listed, explicit_lyrics: true, time_add: 1_700_000_000 }, 7);
    expect(track).toMatchObject({ artists: ['Daft Punk'], track_number: null, disc_number: null, explicit: true, position: 7, source_position: 7, added_at: '2023-11-14T22:13:20.000Z', release_date: '2001-03-07' });
  });

  it('invents nothing for a search hit without ISRC, and survives junk', () => {
    const { isrc: _isrc, ...hit } = fullTrack;
    expect(mapTrack(hit).isrc).toBeNull();
    expect(mapTrack({ id: 'abc', title: 5, duration: -1, album: 'x' })).toMatchObject({ id: null, title: '', duration_s: null, album: null, provider_uris: {} });
    expect(mapTrack(null)).toMatchObject({ media_type: 'unknown', is_migratable: false });
  });

  it('reads episodes but never migrates them', () => {
    expect(mapTrack({ id: 5, title: 'Episode 3', type: 'episode' })).toMatchObject({ media_type: 'episode', is_migratable: false, unsupported_reason: EPISODE_REASON, provider_uris: {} });
  });

  it('keeps release dates at the precision Deezer knows', () => {
    expect(releaseDate('0000-00-00')).toEqual({ release_date: null, release_year: null });
    expect(releaseDate('1999-00-00')).toEqual({ release_date: '1999', release_year: 1999 });
    expect(releaseDate('1999-05-00')).toEqual({ release_date: '1999-05', release_year: 1999 });
    expect(releaseDate('nope')).toEqual({ release_date: null, release_year: null });
  });
});

describe('playlists', () => {
  const summary = { id: 908622995, title: 'Mix', public: false, collaborative: true, nb_tracks: 12, checksum: 'abc123', picture_big: 'https://img/b.jpg', time_mod: 1_700_000_000, creator: { id: 5, name: 'Owner' }, is_loved_track: false, link: 'https://www.deezer.com/playlist/908622995' };

  it('maps ownership against the current user and the checksum as snapshot id', () => {
    expect(mapPlaylist(summary, '5')).toMatchObject({ id: '908622995', name: 'Mix', track_count: 12, snapshot_id: 'abc123', is_owned: true, is_followed: false, collaborative: true, owner_id: '5', owner_name: 'Owner', photo: 'https://img/b.jpg', kind: 'PLAYLIST', provider_uris: { deezer: 'deezer:playlist:908622995' }, metadata: { public: false } });
    expect(mapPlaylist(summary, '6')).toMatchObject({ is_owned: false, is_followed: true });
    expect(mapPlaylist(summary, null)).toMatchObject({ is_owned: null, is_followed: null });
  });

  it('marks the Loved Tracks playlist as the liked collection and reads a full playlist’s embedded checksum', () => {
    expect(mapPlaylist({ ...summary, is_loved_track: true }, '5').kind).toBe('LIKED_TRACKS');
    const { checksum: _checksum, ...full } = summary;
    expect(mapPlaylist({ ...full, description: 'Long one', tracks: { data: [], checksum: 'def' } }, '5')).toMatchObject({ description: 'Long one', snapshot_id: 'def' });
  });
});

describe('albums and artists', () => {
  it('maps favourite albums with UPC and added time, and artists with their picture', () => {
    expect(mapAlbum({ id: 302127, title: 'Discovery', upc: '724384960650', nb_tracks: 14, release_date: '2001-03-07', artist: { name: 'Daft Punk' }, cover_big: 'https://img/b.jpg', record_type: 'album', time_add: 1_700_000_000 })).toMatchObject({
      id: '302127',
      artists: ['Daft Punk'],
      upc: '724384960650',
      track_count: 14,
      release_year: 2001,
      artwork_uri: 'https://img/b.jpg',
      provider_uris: { deezer: 'deezer:album:302127' },
      added_at: '2023-11-14T22:13:20.000Z',
    });
    expect(mapAlbum({ id: 1, title: 'x', upc: 'not-a-upc' }).upc).toBeNull();
    expect(mapArtist({ id: 27, name: 'Daft Punk', picture_xl: 'https://img/a.jpg', nb_fan: 10 })).toMatchObject({ id: '27', name: 'Daft Punk', artwork_uri: 'https://img/a.jpg', provider_uris: { deezer: 'deezer:artist:27' }, metadata: { fans: 10 } });
  });
});
