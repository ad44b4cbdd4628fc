import type { AlbumInput, ArtistInput, PlaylistInput } from '@opl/plugin-sdk';
import { at, joinedText, nonEmpty, record, runs, text, type JsonRecord } from './json-read.ts';
import { lastThumbnail, parseListItem } from './list-item-parser.ts';
import { findShelf } from './shelves.ts';
import { albumUri, channelUri, playlistUri } from './ytmusic-uri.ts';

/**
 * Library tiles (`musicTwoRowItemRenderer`), playlist headers and artist rows as universal
 * playlists, albums and artists. A tile names its owner's channel in the subtitle ("Owner • 12
 * songs"); a playlist page tells ownership by its header: owners get the editable
 * `musicEditablePlaylistDetailHeaderRenderer`, everyone else the plain responsive header.
 */

/** Automatic playlists the library grid shows that are not ordinary playlists. */
export const SPECIAL_PLAYLISTS = new Set(['LM', 'SE']);

function browseIdOf(value: unknown): string | null {
  return nonEmpty(at(value, 'navigationEndpoint', 'browseEndpoint', 'browseId'));
}

/** "12 songs", "1,204 tracks", "1 episode" → the number. */
export function countFrom(value: string | null): number | null {
  const match = value === null ? null : /(\d[\d,.\u00a0]*)\s+(?:songs?|tracks?|episodes?|videos?)\b/i.exec(value);
  if (!match) return null;
  const digits = match[1]!.replace(/[^\d]/g, '');
  return digits === '' ? null : Number(digits);
}

export function mapPlaylistTile(tile: JsonRecord, accountChannelId: string | null): PlaylistInput | null {
  const browseId = browseIdOf(tile) ?? browseIdOf(runs(tile['title'])[0]);
  if (!browseId?.startsWith('VL')) return null;
  const id = browseId.slice(2);
  if (SPECIAL_PLAYLISTS.has(id)) return null;
  const subtitle = runs(tile['subtitle']);
  const ownerRun = subtitle.find((run) => browseIdOf(run)?.startsWith('UC'));
  const ownerId = ownerRun ? browseIdOf(ownerRun) : null;
  const owned = ownerId !== null && accountChannelId !== null ? ownerId === accountChannelId : null;
  const artwork = lastThumbnail(tile['thumbnailRenderer']);
  return {
    id,
    name: joinedText(tile['title']) ?? '',
    photo: artwork,
    artwork_uri: artwork,
    track_count: countFrom(joinedText(tile['subtitle'])),
    owner_id: ownerId,
    owner_name: ownerRun ? text(ownerRun['text']) : null,
    is_owned: owned,
    is_followed: owned === null ? null : !owned,
    provider_uris: { ytmusic: playlistUri(id) },
  };
}

export interface PlaylistHeader {
  readonly owned: boolean;
  readonly playlist: PlaylistInput;
}

/** The header of a `browse VL<id>` answer. */
export function mapPlaylistHeader(answer: JsonRecord, id: string): PlaylistHeader {
  const first = record(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs', 0, 'tabRenderer', 'content', 'sectionListRenderer', 'contents', 0));
  const editable = record(first?.['musicEditablePlaylistDetailHeaderRenderer']);
  const header = record(at(editable ?? first, ...(editable ? ['header', 'musicResponsiveHeaderRenderer'] : ['musicResponsiveHeaderRenderer'])));
  const microformat = record(at(answer, 'microformat', 'microformatDataRenderer'));
  const ownerRun = runs(header?.['straplineTextOne'])[0];
  const description = joinedText(at(header, 'description', 'musicDescriptionShelfRenderer', 'description')) ?? nonEmpty(microformat?.['description']);
  const artwork = lastThumbnail(header?.['thumbnail']);
  const privacy = text(at(editable, 'editHeader', 'musicPlaylistEditHeaderRenderer', 'privacy'));
  const owned = editable !== null;
  // Album playlists (`OLAK5uy_…`) come without a header: the shelf still counts the entries, and
  // their album names the playlist.
  const shelf = findShelf(answer, ['musicPlaylistShelfRenderer']);
  const collapsed = typeof shelf?.['collapsedItemCount'] === 'number' && Number.isInteger(shelf['collapsedItemCount']) ? shelf['collapsedItemCount'] : null;
  const firstRow = record(at(shelf, 'contents', 0, 'musicResponsiveListItemRenderer'));
  const albumName = id.startsWith('OLAK5uy_') && firstRow ? (parseListItem(firstRow).album?.title ?? null) : null;
  return {
    owned,
    playlist: {
      id,
      name: joinedText(header?.['title']) ?? nonEmpty(microformat?.['title']) ?? albumName ?? '',
      description: description ?? null,
      photo: artwork,
      artwork_uri: artwork,
      track_count: countFrom(joinedText(header?.['secondSubtitle'])) ?? collapsed,
      owner_id: ownerRun ? browseIdOf(ownerRun) : null,
      owner_name: ownerRun ? text(ownerRun['text']) : null,
      is_owned: owned,
      is_followed: !owned,
      collaborative: header ? header['facepile'] !== undefined : null,
      provider_uris: { ytmusic: playlistUri(id) },
      metadata: privacy ? { privacy } : {},
    },
  };
}

/** A saved album tile: "Album • Artist • 2019". */
export function mapAlbumTile(tile: JsonRecord): AlbumInput | null {
  const browseId = browseIdOf(tile) ?? browseIdOf(runs(tile['title'])[0]);
  if (!browseId?.startsWith('MPREb_')) return null;
  const subtitle = runs(tile['subtitle']);
  const artists = subtitle.filter((run) => browseIdOf(run)?.startsWith('UC')).map((run) => text(run['text']) ?? '').filter(Boolean);
  const yearRun = subtitle.map((run) => (text(run['text']) ?? '').trim()).find((value) => /^\d{4}$/.test(value));
  const kind = (text(subtitle[0]?.['text']) ?? '').trim();
  return {
    id: browseId,
    title: joinedText(tile['title']) ?? '',
    artists,
    release_date: yearRun ?? null,
    release_year: yearRun ? Number(yearRun) : null,
    artwork_uri: lastThumbnail(tile['thumbnailRenderer']),
    provider_uris: { ytmusic: albumUri(browseId) },
    metadata: kind ? { releaseType: kind } : {},
  };
}

/** A subscribed artist's row. */
export function mapArtistRow(row: JsonRecord): ArtistInput | null {
  const channelId = nonEmpty(at(row, 'navigationEndpoint', 'browseEndpoint', 'browseId'));
  if (!channelId?.startsWith('UC')) return null;
  const name = joinedText(at(row, 'flexColumns', 0, 'musicResponsiveListItemFlexColumnRenderer', 'text'));
  if (!name) return null;
  return { id: channelId, name, artwork_uri: lastThumbnail(row['thumbnail']), provider_uris: { ytmusic: channelUri(channelId) } };
}
