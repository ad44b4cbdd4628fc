import { describe, expect, it } from 'vitest';
import { artworkUrl, catalogIdOf, mapPlaylist, mapTrack, releaseDate, splitArtists } from '../../../plugins/providers/applemusic/src/apple-mapping.ts';

const ARTWORK = 'https://is1-ssl.mzstatic.com/image/thumb/Music126/v4/ab/cd/abcd/cover.jpg/{w}x{h}bb.jpg';

/** A catalog song as `GET /v1/catalog/us/songs?filter[isrc]=…` answers it. */
const catalogSong = {
  id: '1440857781',
  type: 'songs',
  href: '/v1/catalog/us/songs/1440857781',
  attributes: {
    albumName: 'Afterglow',
    artistName: 'Mira Solberg & Paper Lanterns',
    artwork: { width: 3000, height: 3000, url: ARTWORK, bgColor: '1e1a17' },
    composerName: 'Mira Solberg',
    contentRating: 'explicit',
    discNumber: 2,
    durationInMillis: 205_433,
    genreNames: ['Alternative', 'Music'],
    hasLyrics: true,
    isrc: 'GBAYE2400001',
    name: 'Golden Hour (Live)',
    playParams: { id: '1440857781', kind: 'song' },
    releaseDate: '2024-03-15',
    trackNumber: 7,
    url: 'https://music.apple.com/us/album/afterglow/1440857000?i=1440857781',
  },
};

/** The same song as a playlist entry: a library song with its catalog resource included. */
const librarySong = {
  id: 'i.PkdZbQXsPJ4DX',
  type: 'library-songs',
  href: '/v1/me/library/songs/i.PkdZbQXsPJ4DX',
  attributes: {
    albumName: 'Afterglow',
    artistName: 'Mira Solberg & Paper Lanterns',
    artwork: { width: 1200, height: 1200, url: ARTWORK },
    contentRating: 'explicit',
    discNumber: 2,
    durationInMillis: 205_433,
    genreNames: ['Alternative'],
    name: 'Golden Hour (Live)',
    playParams: { id: 'i.PkdZbQXsPJ4DX', kind: 'song', isLibrary: true, reporting: true, catalogId: '1440857781' },
    releaseDate: '2024-03-15',
    trackNumber: 7,
    dateAdded: '2024-05-01T10:00:00Z',
  },
  relationships: { catalog: { href: '/v1/me/library/songs/i.PkdZbQXsPJ4DX/catalog', data: [catalogSong] } },
};

describe('tracks', () => {
  it('maps a library song through its included catalog song', () => {
    expect(mapTrack(librarySong, { position: 4 })).toMatchObject({
      id: '1440857781',
      title: 'Golden Hour (Live)',
      artist: 'Mira Solberg & Paper Lanterns',
      artists: ['Mira Solberg', 'Paper Lanterns'],
      album: 'Afterglow',
      duration_s: 205.433,
      isrc: 'GBAYE2400001',
      release_date: '2024-03-15',
      release_year: 2024,
      genre: 'Alternative',
      track_number: 7,
      disc_number: 2,
      explicit: true,
      composer: 'Mira Solberg',
      artwork_uri: ARTWORK.replace('{w}x{h}', '600x600'),
      provider_uris: { applemusic: 'applemusic:song:1440857781' },
      metadata: { url: 'https://music.apple.com/us/album/afterglow/1440857000?i=1440857781' },
      media_type: 'track',
      position: 4,
      source_position: 4,
      source_item_id: null,
      is_migratable: true,
      added_at: '2024-05-01T10:00:00Z',
      provider_metadata: { library_id: 'i.PkdZbQXsPJ4DX', has_lyrics: true },
    });
  });

  it('still knows the catalog id (not the ISRC) when the catalog resource was not included', () => {
    const { relationships: _catalog, ...bare } = librarySong;
    const track = mapTrack(bare);
    expect(track).toMatchObject({ id: '1440857781', isrc: null, provider_uris: { applemusic: 'applemusic:song:1440857781' }, is_migratable: true });
    expect(catalogIdOf(bare)).toBe('1440857781');
  });

  it('reads a catalog song without a rating as not explicit, and a clean edit as clean', () => {
    const { contentRating: _rating, ...unrated } = catalogSong.attributes;
    expect(mapTrack({ ...catalogSong, attributes: unrated }).explicit).toBe(false);
    expect(mapTrack({ ...catalogSong, attributes: { ...catalogSong.attributes, contentRating: 'clean' } }).explicit).toBe(false);
  });

  it('maps a music video in a playlist as a video that cannot migrate', () => {
    const video = { id: 'i.VidVidVid0001', type: 'library-music-videos', attributes: { name: 'Golden Hour (Official Video)', artistName: 'Mira Solberg', durationInMillis: 219_000, playParams: { id: 'i.VidVidVid0001', kind: 'musicVideo', isLibrary: true, catalogId: '1500000001' } } };
    expect(mapTrack(video)).toMatchObject({ media_type: 'video', is_migratable: false, provider_uris: { applemusic: 'applemusic:music-video:1500000001' } });
    expect(mapTrack(video).unsupported_reason).toMatch(/music video/);
  });

  it('maps an upload with no catalog match as a local file: its tags, no rating guessed', () => {
    const upload = { id: 'i.Upload000001', type: 'library-songs', attributes: { name: 'Garage Demo', artistName: 'The Neighbours', albumName: 'Tapes', durationInMillis: 201_500, genreNames: [], playParams: { id: 'i.Upload000001', kind: 'song', isLibrary: true } } };
    expect(mapTrack(upload)).toMatchObject({ id: 'i.Upload000001', title: 'Garage Demo', media_type: 'local_file', is_local: true, is_migratable: false, explicit: null, isrc: null, artwork_uri: null, provider_uris: { applemusic: 'applemusic:library-song:i.Upload000001' } });
  });

  it('degrades a malformed resource to empty fields instead of failing', () => {
    expect(mapTrack({ type: 'library-songs', attributes: { durationInMillis: 'long', trackNumber: -1, releaseDate: 'soon' } })).toMatchObject({ title: '', artist: '', duration_s: null, track_number: null, release_date: null });
  });
});

describe('fields', () => {
  it('fills the artwork template without asking for more than the image has', () => {
    expect(artworkUrl({ url: ARTWORK, width: 3000, height: 3000 })).toBe(ARTWORK.replace('{w}x{h}', '600x600'));
    expect(artworkUrl({ url: ARTWORK, width: 300, height: 200 })).toBe(ARTWORK.replace('{w}x{h}', '300x200'));
    expect(artworkUrl({ url: ARTWORK, width: 1200, height: 600 }, 300)).toBe(ARTWORK.replace('{w}x{h}', '300x150'));
    expect(artworkUrl({ url: 'http://insecure.example/{w}x{h}.jpg' })).toBeNull();
    expect(artworkUrl(null)).toBeNull();
  });

  it('keeps the release date precision Apple has', () => {
    expect(releaseDate('1999')).toEqual({ release_date: '1999', release_year: 1999 });
    expect(releaseDate('2001-04')).toEqual({ release_date: '2001-04', release_year: 2001 });
    expect(releaseDate('2024-03-15')).toEqual({ release_date: '2024-03-15', release_year: 2024 });
    expect(releaseDate('15/03/2024')).toEqual({ release_date: null, release_year: null });
  });

  it('splits Apple’s display artist string', () => {
    expect(splitArtists('Mira Solberg')).toEqual(['Mira Solberg']);
    expect(splitArtists('A & B')).toEqual(['A', 'B']);
    expect(splitArtists('A, B & C')).toEqual(['A', 'B', 'C']);
    expect(splitArtists(null)).toEqual([]);
  });
});

describe('playlists', () => {
  const playlist = {
    id: 'p.JL6884DCbMXbx2',
    type: 'library-playlists',
    attributes: {
      canEdit: true,
      dateAdded: '2022-03-10T18:30:56Z',
      description: { standard: 'Windows down, volume up.' },
      hasCatalog: false,
      isPublic: true,
      lastModifiedDate: '2024-09-18T20:18:24Z',
      name: 'Road Trip',
      playParams: { id: 'p.JL6884DCbMXbx2', kind: 'playlist', isLibrary: true },
    },
  };

  it('maps a library playlist; editable means owned; no snapshot id', () => {
    expect(mapPlaylist(playlist)).toMatchObject({
      id: 'p.JL6884DCbMXbx2',
      name: 'Road Trip',
      description: 'Windows down, volume up.',
      created_at: '2022-03-10T18:30:56Z',
      updated_at: '2024-09-18T20:18:24Z',
      is_owned: true,
      is_followed: null,
      snapshot_id: null,
      kind: 'PLAYLIST',
      provider_uris: { applemusic: 'applemusic:library-playlist:p.JL6884DCbMXbx2' },
      metadata: { is_public: true },
    });
  });

  it('maps a catalogue playlist added to the library as followed, not owned', () => {
    const added = { ...playlist, attributes: { ...playlist.attributes, canEdit: false, hasCatalog: true, playParams: { ...playlist.attributes.playParams, globalId: 'pl.u-AbC123' } } };
    expect(mapPlaylist(added)).toMatchObject({ is_owned: false, is_followed: true, metadata: { global_id: 'pl.u-AbC123' } });
  });
});
