import type { CatalogAlbum, CatalogArtist, CatalogTrack, CatalogVideo } from './tidal-catalog.ts';
import { isoDuration, type IncludeNode, type RelationshipGraph, type ResourceIdentifier, type ResourceObject } from './json-api.ts';
import type { FakePlaylist, FakeUser, TidalState } from './tidal-state.ts';

/**
 * Resource objects as the provider serializes them, the relationships between them, and the
 * compound-document builder that resolves `include` trees into `included` (each resource once,
 * relationships present only where they were asked for).
 */

export const RELATIONSHIPS: RelationshipGraph = {
  playlists: { items: ['tracks', 'videos'], owners: ['users'], coverArt: ['artworks'] },
  tracks: { albums: ['albums'], artists: ['artists'] },
  videos: { albums: ['albums'], artists: ['artists'] },
  albums: { artists: ['artists'], coverArt: ['artworks'] },
  artists: { profileArt: ['artworks'] },
  artworks: {},
  users: {},
  searchResults: { tracks: ['tracks'], albums: ['albums'], artists: ['artists'], playlists: ['playlists'], videos: ['videos'], topHits: ['tracks', 'albums', 'artists', 'playlists', 'videos'] },
  // Roots of relationship endpoints: include paths stay relative to the owning resource.
  'playlists#items': { items: ['tracks', 'videos'] },
  'userCollectionTracks#items': { items: ['tracks'] },
  'userCollectionAlbums#items': { items: ['albums'] },
  'userCollectionArtists#items': { items: ['artists'] },
};

function externalLink(kind: string, id: string) {
  return [{ href: `https://tidal.com/browse/${kind}/${id}`, meta: { type: 'TIDAL_SHARING' } }];
}

export function trackResource(track: CatalogTrack): ResourceObject {
  return {
    id: track.id,
    type: 'tracks',
    attributes: {
      title: track.title,
      ...(track.version ? { version: track.version } : {}),
      // Required by the schema; a recording without one has an empty string.
      isrc: track.isrc ?? '',
      duration: isoDuration(track.durationS),
      explicit: track.explicit,
      key: 'UNKNOWN',
      keyScale: 'UNKNOWN',
      mediaTags: ['LOSSLESS'],
      popularity: track.popularity,
      accessType: 'PUBLIC',
      externalLinks: externalLink('track', track.id),
    },
  };
}

export function videoResource(video: CatalogVideo): ResourceObject {
  return {
    id: video.id,
    type: 'videos',
    attributes: { title: video.title, isrc: video.isrc, duration: isoDuration(video.durationS), explicit: video.explicit, popularity: 0.5, releaseDate: video.releaseDate, externalLinks: externalLink('video', video.id) },
  };
}

export function albumResource(album: CatalogAlbum, state: TidalState): ResourceObject {
  const seconds = album.trackIds.reduce((total, id) => total + (state.catalog.tracks.get(id)?.durationS ?? 0), 0);
  return {
    id: album.id,
    type: 'albums',
    attributes: {
      title: album.title,
      barcodeId: album.barcodeId,
      albumType: album.albumType,
      duration: isoDuration(seconds),
      explicit: album.trackIds.some((id) => state.catalog.tracks.get(id)?.explicit),
      mediaTags: ['LOSSLESS'],
      numberOfItems: album.trackIds.length,
      numberOfVolumes: 1,
      popularity: 0.5,
      releaseDate: album.releaseDate,
      accessType: 'PUBLIC',
      externalLinks: externalLink('album', album.id),
    },
  };
}

export function artistResource(artist: CatalogArtist): ResourceObject {
  return { id: artist.id, type: 'artists', attributes: { name: artist.name, popularity: 0.5, externalLinks: externalLink('artist', artist.id) } };
}

export function userResource(user: FakeUser): ResourceObject {
  return { id: user.id, type: 'users', attributes: { username: user.username, country: user.country, email: user.email, emailVerified: true, developerAccessTier: 'THIRD_PARTY' } };
}

export function playlistResource(playlist: FakePlaylist, state: TidalState): ResourceObject {
  const seconds = playlist.items.reduce((total, entry) => total + (entry.type === 'tracks' ? (state.catalog.tracks.get(entry.id)?.durationS ?? 0) : (state.catalog.videos.get(entry.id)?.durationS ?? 0)), 0);
  return {
    id: playlist.id,
    type: 'playlists',
    attributes: {
      name: playlist.name,
      description: playlist.description,
      accessType: playlist.accessType,
      bounded: true,
      createdAt: playlist.createdAt,
      lastModifiedAt: playlist.lastModifiedAt,
      duration: isoDuration(seconds),
      numberOfFollowers: 0,
      numberOfItems: playlist.items.length,
      numberOfTrackItems: playlist.items.filter((entry) => entry.type === 'tracks').length,
      numberOfVideoItems: playlist.items.filter((entry) => entry.type === 'videos').length,
      playlistType: 'USER',
      externalLinks: [{ href: `https://tidal.com/browse/playlist/${playlist.id}`, meta: { type: 'TIDAL_SHARING' } }],
    },
  };
}

/** Looks a resource up by type and id; null when it does not exist. */
export function findResource(state: TidalState, type: string, id: string): ResourceObject | null {
  const { catalog } = state;
  switch (type) {
    case 'tracks': {
      const track = catalog.tracks.get(id);
      return track ? trackResource(track) : null;
    }
    case 'videos': {
      const video = catalog.videos.get(id);
      return video ? videoResource(video) : null;
    }
    case 'albums': {
      const album = catalog.albums.get(id);
      return album ? albumResource(album, state) : null;
    }
    case 'artists': {
      const artist = catalog.artists.get(id);
      return artist ? artistResource(artist) : null;
    }
    case 'artworks': {
      const artwork = catalog.artworks.get(id);
      return artwork ? { id, type: 'artworks', attributes: { mediaType: 'IMAGE', files: artwork.files } } : null;
    }
    case 'users': {
      const user = state.users.get(id);
      return user ? userResource(user) : null;
    }
    case 'playlists': {
      const playlist = state.playlists.get(id);
      return playlist ? playlistResource(playlist, state) : null;
    }
    default:
      return null;
  }
}

/** The identifiers a resource's relationship points to; null when its type has no such relationship. */
export function relatedIdentifiers(state: TidalState, resource: ResourceObject, member: string, extra: ExtraRelationships): ResourceIdentifier[] | null {
  const custom = extra(resource, member);
  if (custom) return custom;
  const { catalog } = state;
  const ids = (type: string, list: readonly string[]) => list.map((id) => ({ id, type }));
  switch (`${resource.type}.${member}`) {
    case 'playlists.items':
      return (state.playlists.get(resource.id)?.items ?? []).map((entry) => ({ id: entry.id, type: entry.type, meta: { itemId: entry.itemId, addedAt: entry.addedAt } }));
    case 'playlists.owners':
      return ids('users', [state.playlists.get(resource.id)?.ownerId ?? ''].filter(Boolean));
    case 'playlists.coverArt':
      return [];
    case 'tracks.albums':
      return ids('albums', [catalog.tracks.get(resource.id)!.albumId]);
    case 'tracks.artists':
      return ids('artists', catalog.tracks.get(resource.id)!.artistIds);
    case 'videos.albums':
      return [];
    case 'videos.artists':
      return ids('artists', catalog.videos.get(resource.id)!.artistIds);
    case 'albums.artists':
      return ids('artists', catalog.albums.get(resource.id)!.artistIds);
    case 'albums.coverArt':
      return ids('artworks', [catalog.albums.get(resource.id)!.coverArtId]);
    case 'artists.profileArt':
      return ids('artworks', [catalog.artists.get(resource.id)!.profileArtId]);
    default:
      return null;
  }
}

/** Relationships of resources that exist only in one answer (search results). */
export type ExtraRelationships = (resource: ResourceObject, member: string) => ResourceIdentifier[] | null;
const noExtra: ExtraRelationships = () => null;

/** A compound document under construction: primary data plus `included`, each resource once. */
export class CompoundDocument {
  readonly #state: TidalState;
  readonly #extra: ExtraRelationships;
  readonly #pageSize: number;
  readonly #objects = new Map<string, ResourceObject>();
  readonly included: ResourceObject[] = [];

  constructor(state: TidalState, pageSize: number, primary: readonly ResourceObject[], extra: ExtraRelationships = noExtra) {
    this.#state = state;
    this.#pageSize = pageSize;
    this.#extra = extra;
    for (const resource of primary) this.#objects.set(`${resource.type}:${resource.id}`, resource);
  }

  #obtain(identifier: ResourceIdentifier): ResourceObject | null {
    const key = `${identifier.type}:${identifier.id}`;
    const known = this.#objects.get(key);
    if (known) return known;
    const found = findResource(this.#state, identifier.type, identifier.id);
    if (!found) return null;
    this.#objects.set(key, found);
    this.included.push(found);
    return found;
  }

  /** Resolves `nodes` on `resources`: sets their relationships and adds the related resources to `included`. */
  expand(resources: readonly ResourceObject[], nodes: readonly IncludeNode[]): void {
    for (const node of nodes) {
      const reached: ResourceObject[] = [];
      for (const resource of resources) {
        if (node.segment.qualifier && resource.type !== node.segment.qualifier) continue;
        let identifiers = relatedIdentifiers(this.#state, resource, node.segment.member, this.#extra);
        if (identifiers === null) continue;
        const links: { self: string; next?: string; meta?: { nextCursor: string } } = { self: `/${resource.type}/${resource.id}/relationships/${node.segment.member}` };
        // Long to-many relationships carry their first page only, with a link to the rest.
        if (identifiers.length > this.#pageSize) {
          identifiers = identifiers.slice(0, this.#pageSize);
          links.next = `${links.self}?page[cursor]=${Buffer.from(JSON.stringify({ o: this.#pageSize, v: 1 })).toString('base64url')}`;
        }
        resource.relationships = { ...resource.relationships, [node.segment.member]: { data: identifiers, links } };
        for (const identifier of identifiers) {
          const related = this.#obtain(identifier);
          if (related) reached.push(related);
        }
      }
      this.expand(reached, node.children);
    }
  }

  /** For relationship endpoints: the page's identifiers are what the root's `member` path reaches. */
  expandPage(identifiers: readonly ResourceIdentifier[], nodes: readonly IncludeNode[], member: string): void {
    for (const node of nodes) {
      if (node.segment.member !== member) continue;
      const reached = identifiers.map((identifier) => this.#obtain(identifier)).filter((resource): resource is ResourceObject => resource !== null);
      this.expand(reached, node.children);
    }
  }
}
