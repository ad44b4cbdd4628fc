import { describe, expect, it } from 'vitest';
import { readDocument, type Document, type Resource } from '../../../plugins/providers/tidal/src/json-api-document.ts';
import { artworkUrl, entryContext, fullTitle, mapAlbum, mapArtist, mapPlaylist, mapTrack, releaseDate, unavailableEntry } from '../../../plugins/providers/tidal/src/tidal-mapping.ts';

const artwork = (id: string, sizes: number[]) => ({ id, type: 'artworks', attributes: { mediaType: 'IMAGE', files: sizes.map((size) => ({ href: `https://resources.tidal.com/images/${id}/${size}x${size}.jpg`, meta: { width: size, height: size } })) } });

/** A playlist-items page as TIDAL answers it with `include=items.artists,items.albums.coverArt`. */
const itemsPage = {
  data: [
    { id: '111', type: 'tracks', meta: { itemId: 'it-a', addedAt: '2024-05-01T10:00:00Z' } },
    { id: '222', type: 'videos', meta: { itemId: 'it-b', addedAt: '2024-05-02T10:00:00Z' } },
    { id: '333', type: 'tracks', meta: { itemId: 'it-c' } },
    { id: '111', type: 'tracks', meta: { itemId: 'it-d' } },
  ],
  included: [
    {
      id: '111',
      type: 'tracks',
      attributes: { title: 'Golden Hour', version: 'Live', isrc: 'GBAYE2400001', duration: 'PT3M25S', explicit: true, mediaTags: ['LOSSLESS', 'HIRES_LOSSLESS'], popularity: 0.7, copyright: { text: '(P) 2024 Invented Records' } },
      relationships: { artists: { data: [{ id: '9', type: 'artists' }, { id: '8', type: 'artists' }], links: { self: '/x' } }, albums: { data: [{ id: '50', type: 'albums' }], links: { self: '/y' } } },
    },
    { id: '222', type: 'videos', attributes: { title: 'Golden Hour (Official Video)', isrc: 'GBAYE2490001', duration: 'PT3M37S', explicit: false, releaseDate: '2024-02-03' }, relationships: { artists: { data: [{ id: '9', type: 'artists' }], links: { self: '/z' } } } },
    { id: '9', type: 'artists', attributes: { name: 'Mira Solberg', popularity: 0.5 } },
    { id: '8', type: 'artists', attributes: { name: 'Paper Lanterns', popularity: 0.5 } },
    { id: '50', type: 'albums', attributes: { title: 'Afterglow', releaseDate: '2024-03-15', barcodeId: '192000000017', numberOfItems: 11, albumType: 'ALBUM' }, relationships: { coverArt: { data: [{ id: 'cov', type: 'artworks' }], links: { self: '/c' } }, artists: { data: [{ id: '9', type: 'artists' }], links: { self: '/d' } } } },
    artwork('cov', [80, 640, 1280, 3000]),
  ],
  links: { self: '/playlists/p/relationships/items', next: '/playlists/p/relationships/items?page[cursor]=abc%3D', meta: { nextCursor: 'abc=' } },
};

function page(): { document: Document; identifiers: { id: string; type: string; meta: Record<string, unknown> }[] } {
  const document = readDocument(itemsPage)!;
  return { document, identifiers: itemsPage.data };
}

function resource(document: Document, type: string, id: string): Resource {
  return document.included.get(`${type}:${id}`)!;
}

describe('readDocument', () => {
  it('indexes included resources and finds the next cursor', () => {
    const { document } = page();
    expect(document.data).toHaveLength(4);
    expect(document.included.size).toBe(6);
    expect(document.nextCursor).toBe('abc=');
  });

  it('falls back to the cursor in links.next, and to null on the last page', () => {
    expect(readDocument({ data: [], links: { self: '/a', next: '/a?include=x&page%5Bcursor%5D=q%2Bz' } })!.nextCursor).toBe('q+z');
    expect(readDocument({ data: [], links: { self: '/a' } })!.nextCursor).toBeNull();
  });

  it('refuses what is not a JSON:API document and skips malformed resources', () => {
    expect(readDocument('<html>')).toBeNull();
    expect(readDocument({ errors: [] })).toBeNull();
    expect(readDocument({ data: { id: '1', type: 'users' }, included: [{ id: 2, type: 'x' }, null, 'junk'] })!.included.size).toBe(0);
  });
});

describe('mapTrack', () => {
  it('maps a track with its included artists, album and cover', () => {
    const { document, identifiers } = page();
    const track = mapTrack(document, resource(document, 'tracks', '111'), entryContext(identifiers[0]!, 40));
    expect(track).toMatchObject({
      id: '111',
      title: 'Golden Hour (Live)',
      artist: 'Mira Solberg, Paper Lanterns',
      artists: ['Mira Solberg', 'Paper Lanterns'],
      album: 'Afterglow',
      duration_s: 205,
      isrc: 'GBAYE2400001',
      release_date: '2024-03-15',
      release_year: 2024,
      explicit: true,
      artwork_uri: 'https://resources.tidal.com/images/cov/1280x1280.jpg',
      provider_uris: { tidal: 'tidal:track:111' },
      media_type: 'track',
      is_migratable: true,
      unsupported_reason: null,
      position: 40,
      source_position: 40,
      source_item_id: 'it-a',
      added_at: '2024-05-01T10:00:00Z',
      metadata: { url: 'https://tidal.com/browse/track/111', copyright: '(P) 2024 Invented Records' },
      provider_metadata: { version: 'Live', media_tags: ['LOSSLESS', 'HIRES_LOSSLESS'], popularity: 0.7 },
    });
  });

  it('gives the same track twice two entry ids', () => {
    const { document, identifiers } = page();
    const first = mapTrack(document, resource(document, 'tracks', '111'), entryContext(identifiers[0]!, 0));
    const again = mapTrack(document, resource(document, 'tracks', '111'), entryContext(identifiers[3]!, 3));
    expect([first.source_item_id, again.source_item_id]).toEqual(['it-a', 'it-d']);
    expect(again.added_at).toBeNull();
  });

  it('reads a music video as a non-migratable entry', () => {
    const { document, identifiers } = page();
    const video = mapTrack(document, resource(document, 'videos', '222'), entryContext(identifiers[1]!, 1));
    expect(video).toMatchObject({ media_type: 'video', is_migratable: false, provider_uris: { tidal: 'tidal:video:222' }, release_date: '2024-02-03', album: null, artist: 'Mira Solberg' });
    expect(video.unsupported_reason).toMatch(/video/);
  });

  it('keeps an entry TIDAL did not return, with its item id, as unavailable', () => {
    const { identifiers } = page();
    const missing = unavailableEntry(identifiers[2]!, entryContext(identifiers[2]!, 2));
    expect(missing).toMatchObject({ id: '333', source_item_id: 'it-c', is_migratable: false, media_type: 'track', provider_uris: { tidal: 'tidal:track:333' }, position: 2 });
  });

  it('tolerates missing attributes and relationships', () => {
    const document = readDocument({ data: [{ id: '7', type: 'tracks' }] })!;
    const bare = mapTrack(document, { id: '7', type: 'tracks', attributes: {}, relationships: {} });
    expect(bare).toMatchObject({ title: '', artist: '', artists: [], album: null, duration_s: null, isrc: null, explicit: null, artwork_uri: null, release_date: null });
  });
});

describe('small mappers', () => {
  it('composes titles without doubling the version', () => {
    expect(fullTitle('Song', 'Live')).toBe('Song (Live)');
    expect(fullTitle('Song (Live)', 'Live')).toBe('Song (Live)');
    expect(fullTitle('Song', null)).toBe('Song');
  });

  it('keeps release dates at their precision and refuses junk', () => {
    expect(releaseDate('2017-06-30')).toEqual({ release_date: '2017-06-30', release_year: 2017 });
    expect(releaseDate('2017')).toEqual({ release_date: '2017', release_year: 2017 });
    expect(releaseDate('2017-06-30T00:00:00Z')).toEqual({ release_date: '2017-06-30', release_year: 2017 });
    expect(releaseDate('June 2017')).toEqual({ release_date: null, release_year: null });
    expect(releaseDate(null)).toEqual({ release_date: null, release_year: null });
  });

  it('picks the largest https artwork up to 1280 px', () => {
    const document = readDocument({ data: [], included: [artwork('a', [80, 320]), { id: 'b', type: 'artworks', attributes: { files: [{ href: 'http://insecure.example/x.jpg', meta: { width: 640 } }] } }] })!;
    expect(artworkUrl([document.included.get('artworks:b')!, document.included.get('artworks:a')!])).toBe('https://resources.tidal.com/images/a/320x320.jpg');
    expect(artworkUrl([])).toBeNull();
  });

  it('maps a playlist with its owner and version marker', () => {
    const document = readDocument({
      data: {
        id: '550e8400-e29b-41d4-a716-446655440000',
        type: 'playlists',
        attributes: { name: 'Road Trip', description: '', accessType: 'PUBLIC', createdAt: '2024-01-01T00:00:00Z', lastModifiedAt: '2024-02-01T00:00:00.123Z', numberOfItems: 42, playlistType: 'USER' },
        relationships: { owners: { data: [{ id: '190007919', type: 'users' }], links: { self: '/o' } } },
      },
      included: [{ id: '190007919', type: 'users', attributes: { username: 'Demo Listener', country: 'US' } }],
    })!;
    const resource = { id: '550e8400-e29b-41d4-a716-446655440000', type: 'playlists', attributes: (document.data[0] as { attributes: Record<string, unknown> }).attributes, relationships: (document.data[0] as { relationships: Record<string, unknown> }).relationships };
    expect(mapPlaylist(document, resource, { userId: '190007919' })).toMatchObject({
      name: 'Road Trip',
      description: null,
      track_count: 42,
      owner_id: '190007919',
      owner_name: 'Demo Listener',
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-02-01T00:00:00.123Z',
      snapshot_id: '2024-02-01T00:00:00.123Z',
      is_owned: true,
      kind: 'PLAYLIST',
      provider_uris: { tidal: 'tidal:playlist:550e8400-e29b-41d4-a716-446655440000' },
      metadata: { access_type: 'PUBLIC', playlist_type: 'USER' },
    });
    expect(mapPlaylist(document, resource, { userId: '1' }).is_owned).toBe(false);
    expect(mapPlaylist(document, resource, { userId: null }).is_owned).toBeNull();
  });

  it('maps albums and artists of the collection', () => {
    const { document } = page();
    expect(mapAlbum(document, resource(document, 'albums', '50'), '2024-06-01T00:00:00Z')).toMatchObject({
      id: '50',
      title: 'Afterglow',
      artists: ['Mira Solberg'],
      release_date: '2024-03-15',
      release_year: 2024,
      upc: '192000000017',
      track_count: 11,
      artwork_uri: 'https://resources.tidal.com/images/cov/1280x1280.jpg',
      provider_uris: { tidal: 'tidal:album:50' },
      added_at: '2024-06-01T00:00:00Z',
    });
    expect(mapArtist(document, resource(document, 'artists', '9'))).toMatchObject({ id: '9', name: 'Mira Solberg', provider_uris: { tidal: 'tidal:artist:9' }, artwork_uri: null, added_at: null });
  });
});
