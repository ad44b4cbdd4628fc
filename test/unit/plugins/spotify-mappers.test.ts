import { describe, expect, it } from 'vitest';
import { mapAlbum, mapArtist, mapSavedAlbum } from '../../../plugins/providers/spotify/src/library-mapper.ts';
import { decodeDescription, mapPlaylist } from '../../../plugins/providers/spotify/src/playlist-mapper.ts';
import { releaseDate } from '../../../plugins/providers/spotify/src/release-date.ts';
import { artworkOf, EPISODE_REASON, LOCAL_FILE_REASON, mapItem, mapPlaylistEntry, mapSavedTrack, UNAVAILABLE_REASON } from '../../../plugins/providers/spotify/src/track-mapper.ts';

const trackObject = {
  album: {
    album_type: 'album',
    artists: [{ name: 'Glass Orchard', id: 'a1', uri: 'spotify:artist:a1', type: 'artist' }],
    id: 'al1',
    images: [
      { url: 'https://i.scdn.co/image/small', height: 64, width: 64 },
      { url: 'https://i.scdn.co/image/large', height: 640, width: 640 },
    ],
    name: 'Tidelines',
    release_date: '2011-05-07',
    release_date_precision: 'day',
    type: 'album',
    uri: 'spotify:album:al1',
  },
  artists: [
    { name: 'Glass Orchard', id: 'a1', uri: 'spotify:artist:a1', type: 'artist' },
    { name: 'Noor Amari', id: 'a2', uri: 'spotify:artist:a2', type: 'artist' },
  ],
  disc_number: 2,
  duration_ms: 215_500,
  explicit: true,
  external_ids: { isrc: 'gbabc1100001' },
  external_urls: { spotify: 'https://open.spotify.com/track/t1' },
  id: 't1',
  is_playable: true,
  name: 'Golden Hour',
  track_number: 7,
  type: 'track',
  uri: 'spotify:track:t1',
  is_local: false,
};

describe('Spotify track mapping', () => {
  it('maps a music track with every universal field Spotify knows', () => {
    const track = mapItem(trackObject);
    expect(track).toMatchObject({
      id: 't1',
      title: 'Golden Hour',
      artist: 'Glass Orchard, Noor Amari',
      artists: ['Glass Orchard', 'Noor Amari'],
      album: 'Tidelines',
      duration_s: 215.5,
      isrc: 'GBABC1100001',
      release_date: '2011-05-07',
      release_year: 2011,
      track_number: 7,
      disc_number: 2,
      explicit: true,
      artwork_uri: 'https://i.scdn.co/image/large',
      provider_uris: { spotify: 'spotify:track:t1' },
      media_type: 'track',
      is_local: false,
    });
    expect(track.is_migratable).not.toBe(false);
    expect(track.metadata).toMatchObject({ spotify_url: 'https://open.spotify.com/track/t1', spotify_album_uri: 'spotify:album:al1', spotify_artist_uris: ['spotify:artist:a1', 'spotify:artist:a2'] });
  });

  it('keeps release dates at the precision Spotify gives', () => {
    expect(releaseDate('1998', 'year')).toEqual({ release_date: '1998', release_year: 1998 });
    expect(releaseDate('1998-04', 'month')).toEqual({ release_date: '1998-04', release_year: 1998 });
    expect(releaseDate('1998-04-02', 'year')).toEqual({ release_date: '1998', release_year: 1998 });
    expect(releaseDate('0000', 'year')).toEqual({ release_date: null, release_year: null });
    expect(releaseDate('04/02/1998', 'day')).toEqual({ release_date: null, release_year: null });
    expect(releaseDate(null, null)).toEqual({ release_date: null, release_year: null });
  });

  it('maps an episode as not migratable, with the show as album and publisher as artist', () => {
    const track = mapItem({
      type: 'episode',
      id: 'e1',
      uri: 'spotify:episode:e1',
      name: 'Episode 12: On Tour',
      duration_ms: 2_400_000,
      explicit: false,
      release_date: '2024-03-01',
      release_date_precision: 'day',
      images: [{ url: 'https://i.scdn.co/image/ep', width: 640, height: 640 }],
      show: { name: 'The Long Listen', publisher: 'Northbound Static', uri: 'spotify:show:s1' },
    });
    expect(track).toMatchObject({
      title: 'Episode 12: On Tour',
      artist: 'Northbound Static',
      album: 'The Long Listen',
      duration_s: 2400,
      media_type: 'episode',
      is_migratable: false,
      unsupported_reason: EPISODE_REASON,
      provider_uris: { spotify: 'spotify:episode:e1' },
    });
  });

  it('maps a local file as not migratable, without catalogue ids or zero numbers', () => {
    const entry = mapPlaylistEntry(
      {
        added_at: '2024-01-05T09:00:00Z',
        is_local: true,
        item: { ...trackObject, id: null, uri: 'spotify:local:Ines+Duarte:Afterglow:Bootleg+1:200', external_ids: {}, track_number: 0, disc_number: 0, is_local: true, album: { name: 'Afterglow', images: [] } },
      },
      3,
    );
    expect(entry).toMatchObject({ id: null, media_type: 'local_file', is_local: true, is_migratable: false, unsupported_reason: LOCAL_FILE_REASON, track_number: null, disc_number: null, isrc: null, position: 3 });
    expect(entry.provider_uris).toEqual({ spotify: 'spotify:local:Ines+Duarte:Afterglow:Bootleg+1:200' });
  });

  it('reads the entry content from `item`, falling back to the deprecated `track`', () => {
    expect(mapPlaylistEntry({ track: trackObject }, 0).title).toBe('Golden Hour');
    expect(mapPlaylistEntry({ item: trackObject, track: { ...trackObject, name: 'Old field' } }, 0).title).toBe('Golden Hour');
  });

  it('keeps an unavailable entry in place, marked as such', () => {
    const entry = mapPlaylistEntry({ added_at: '2020-02-02T10:00:00Z', is_local: false, item: null, track: null }, 5);
    expect(entry).toMatchObject({ title: '', media_type: 'unknown', is_migratable: false, unsupported_reason: UNAVAILABLE_REASON, position: 5, source_position: 5, added_at: '2020-02-02T10:00:00Z' });
  });

  it('sets positions, added_at and added_by; drops malformed timestamps', () => {
    const entry = mapPlaylistEntry({ added_at: '1970-01-01T00:00:00Z', added_by: { id: 'friend' }, item: trackObject }, 41);
    expect(entry).toMatchObject({ position: 41, source_position: 41, added_at: '1970-01-01T00:00:00Z' });
    expect(entry.source_item_id ?? null).toBeNull();
    expect(entry.provider_metadata).toMatchObject({ added_by: 'friend', is_playable: true });
    expect(mapPlaylistEntry({ added_at: 'yesterday', item: trackObject }, 0).added_at).toBeNull();
    expect(mapSavedTrack({ added_at: '2024-06-01T12:00:00Z', track: trackObject }, 2)).toMatchObject({ title: 'Golden Hour', position: 2, added_at: '2024-06-01T12:00:00Z' });
  });

  it('survives wrong types without inventing data', () => {
    const track = mapItem({ type: 'track', name: 42, artists: 'nope', duration_ms: -5, external_ids: { isrc: 7 }, album: [] });
    expect(track).toMatchObject({ title: '', artist: '', artists: [], duration_s: null, isrc: null, album: null, artwork_uri: null });
    expect(mapItem({ type: 'chapter', name: 'Chapter 1', uri: 'spotify:chapter:c1' })).toMatchObject({ media_type: 'unknown', is_migratable: false });
    expect(artworkOf([{ url: '' }, { url: 'https://i.scdn.co/image/x' }])).toBe('https://i.scdn.co/image/x');
  });
});

describe('Spotify playlist mapping', () => {
  const simplified = {
    collaborative: false,
    description: 'Rock &amp; roll &#x27;n&#39; more &lt;3',
    external_urls: { spotify: 'https://open.spotify.com/playlist/p1' },
    id: 'p1',
    images: [{ url: 'https://mosaic.scdn.co/640/x', height: null, width: null }],
    name: 'Road Trip',
    owner: { id: 'me', display_name: 'Demo Listener' },
    public: true,
    snapshot_id: 'snap-1',
    items: { href: 'https://api.spotify.com/v1/playlists/p1/items', total: 42 },
    type: 'playlist',
    uri: 'spotify:playlist:p1',
  };

  it('maps ownership, counts, snapshot and artwork', () => {
    expect(mapPlaylist(simplified, 'me')).toMatchObject({
      id: 'p1',
      name: 'Road Trip',
      description: "Rock & roll 'n' more <3",
      photo: 'https://mosaic.scdn.co/640/x',
      artwork_uri: 'https://mosaic.scdn.co/640/x',
      track_count: 42,
      owner_id: 'me',
      owner_name: 'Demo Listener',
      snapshot_id: 'snap-1',
      is_owned: true,
      is_followed: false,
      collaborative: false,
      kind: 'PLAYLIST',
      provider_uris: { spotify: 'spotify:playlist:p1' },
      metadata: { public: true, spotify_url: 'https://open.spotify.com/playlist/p1' },
    });
    expect(mapPlaylist(simplified, 'someone-else')).toMatchObject({ is_owned: false, is_followed: true });
    expect(mapPlaylist(simplified, null)).toMatchObject({ is_owned: null, is_followed: null });
  });

  it('reads the count from the deprecated `tracks` ref when `items` is absent, and empty descriptions as none', () => {
    const older = { ...simplified, items: undefined, tracks: { total: 7 }, description: '' };
    expect(mapPlaylist(older, 'me')).toMatchObject({ track_count: 7, description: null });
  });

  it('decodes HTML entities in descriptions but leaves unknown ones', () => {
    expect(decodeDescription('a &amp;&amp; b &#x1F600; &bogus; &#0;')).toBe('a && b 😀 &bogus; &#0;');
  });
});

describe('Spotify album and artist mapping', () => {
  it('maps a saved album with UPC, precision, artwork and added_at', () => {
    const album = mapSavedAlbum({
      added_at: '2024-02-02T08:00:00Z',
      album: { id: 'al1', name: 'Tidelines', album_type: 'album', total_tracks: 11, artists: [{ name: 'Glass Orchard' }], release_date: '2011-05', release_date_precision: 'month', external_ids: { upc: '192000000012' }, images: [{ url: 'https://i.scdn.co/image/a', width: 300 }], label: 'Fake Records', uri: 'spotify:album:al1' },
    });
    expect(album).toMatchObject({ id: 'al1', title: 'Tidelines', artists: ['Glass Orchard'], release_date: '2011-05', release_year: 2011, upc: '192000000012', track_count: 11, artwork_uri: 'https://i.scdn.co/image/a', provider_uris: { spotify: 'spotify:album:al1' }, added_at: '2024-02-02T08:00:00Z', metadata: { album_type: 'album', label: 'Fake Records' } });
    expect(mapAlbum(null)).toMatchObject({ title: '', artists: [], upc: null });
  });

  it('maps an artist', () => {
    expect(mapArtist({ id: 'a1', name: 'Glass Orchard', uri: 'spotify:artist:a1', genres: ['indie', 3], images: [] })).toMatchObject({ id: 'a1', name: 'Glass Orchard', provider_uris: { spotify: 'spotify:artist:a1' }, metadata: { genres: ['indie'] }, artwork_uri: null });
  });
});
