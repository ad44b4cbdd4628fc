import { at, joinedText, list, nonEmpty, record, records, runs, text, type JsonRecord } from './json-read.ts';

/**
 * Reads one `musicResponsiveListItemRenderer` — the row of playlists, liked music and search
 * results — into plain fields. Columns are read by what their runs link to rather than by
 * position, because the layouts differ: playlist rows put artists, album and duration in separate
 * columns; search rows put "Artist • Album • 3:45" (songs) or "Artist • 1.2M views • 4:01"
 * (videos) into one.
 */

export interface ArtistRef {
  readonly name: string;
  /** Channel id (`UC…`) when the run links one. */
  readonly id: string | null;
}

export interface ParsedListItem {
  readonly videoId: string | null;
  /** The entry's own id inside a playlist (`playlistSetVideoId`): differs for every occurrence. */
  readonly setVideoId: string | null;
  readonly title: string;
  readonly artists: readonly ArtistRef[];
  readonly album: { readonly title: string; readonly id: string | null } | null;
  readonly durationS: number | null;
  /** `MUSIC_VIDEO_TYPE_ATV` (official audio), `…_OMV` (official video), `…_UGC` (upload), … */
  readonly videoType: string | null;
  readonly explicit: boolean;
  readonly thumbnail: string | null;
  /** Shown greyed out: the video can no longer be played here. */
  readonly greyedOut: boolean;
}

const DURATION = /^(?:(\d{1,3}):)?(\d{1,2}):(\d{2})$/;
const SEPARATORS = new Set(['•', ',', '&', '']);
const TYPE_LABELS = new Set(['Song', 'Video', 'Episode', 'Podcast', 'Single', 'Album', 'EP']);

/** "3:45" or "1:02:03" in seconds; null for anything else. */
export function parseDuration(value: string | null): number | null {
  const match = value === null ? null : DURATION.exec(value.trim());
  if (!match) return null;
  return Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

function watchEndpointOf(run: JsonRecord | undefined): JsonRecord | null {
  return record(at(run, 'navigationEndpoint', 'watchEndpoint'));
}

function videoTypeOf(endpoint: JsonRecord | null): string | null {
  return nonEmpty(at(endpoint, 'watchEndpointMusicSupportedConfigs', 'watchEndpointMusicConfig', 'musicVideoType'));
}

function browseOf(run: JsonRecord): { id: string | null; pageType: string | null } | null {
  const endpoint = record(at(run, 'navigationEndpoint', 'browseEndpoint'));
  if (!endpoint) return null;
  return { id: nonEmpty(endpoint['browseId']), pageType: nonEmpty(at(endpoint, 'browseEndpointContextSupportedConfigs', 'browseEndpointContextMusicConfig', 'pageType')) };
}

function isAlbum(browse: { id: string | null; pageType: string | null }): boolean {
  return browse.pageType === 'MUSIC_PAGE_TYPE_ALBUM' || (browse.id?.startsWith('MPREb_') ?? false);
}

/** The largest thumbnail (YouTube lists them smallest first). */
export function lastThumbnail(value: unknown): string | null {
  const thumbnails = records(at(value, 'musicThumbnailRenderer', 'thumbnail', 'thumbnails'));
  return nonEmpty(thumbnails[thumbnails.length - 1]?.['url']);
}

export function flexColumnRuns(renderer: JsonRecord): JsonRecord[][] {
  return records(renderer['flexColumns']).map((column) => runs(at(column, 'musicResponsiveListItemFlexColumnRenderer', 'text')));
}

export function parseListItem(renderer: JsonRecord): ParsedListItem {
  const columns = flexColumnRuns(renderer);
  const titleRuns = columns[0] ?? [];
  const titleEndpoint = watchEndpointOf(titleRuns[0]);
  const overlayEndpoint = record(at(renderer, 'overlay', 'musicItemThumbnailOverlayRenderer', 'content', 'musicPlayButtonRenderer', 'playNavigationEndpoint', 'watchEndpoint'));
  const itemData = record(renderer['playlistItemData']);

  const artists: ArtistRef[] = [];
  let album: ParsedListItem['album'] = null;
  let durationS: number | null = null;
  columns.slice(1).forEach((column, columnIndex) => {
    let afterDot = false;
    for (const run of column) {
      const value = (text(run['text']) ?? '').trim();
      if (value === '•') {
        afterDot = true;
        continue;
      }
      const browse = browseOf(run);
      if (browse && isAlbum(browse)) {
        album = { title: value, id: browse.id };
      } else if (browse) {
        artists.push({ name: value, id: browse.id });
      } else if (parseDuration(value) !== null) {
        durationS = parseDuration(value);
      } else if (SEPARATORS.has(value) || TYPE_LABELS.has(value) || /\b(views?|plays?|subscribers?)$/i.test(value)) {
        continue;
      } else if (columnIndex === 0 && !afterDot) {
        // An artist the row names without a link ("Various Artists").
        artists.push({ name: value, id: null });
      } else if (columnIndex > 0 && album === null) {
        album = { title: value, id: null };
      }
    }
  });
  const fixed = joinedText(at(renderer, 'fixedColumns', 0, 'musicResponsiveListItemFixedColumnRenderer', 'text'));
  if (durationS === null) durationS = parseDuration(fixed);

  const explicit = list(renderer['badges']).some((badge) => at(badge, 'musicInlineBadgeRenderer', 'icon', 'iconType') === 'MUSIC_EXPLICIT_BADGE');
  return {
    videoId: nonEmpty(itemData?.['videoId']) ?? nonEmpty(titleEndpoint?.['videoId']) ?? nonEmpty(overlayEndpoint?.['videoId']),
    setVideoId: nonEmpty(itemData?.['playlistSetVideoId']) ?? nonEmpty(overlayEndpoint?.['playlistSetVideoId']),
    title: titleRuns.map((run) => text(run['text']) ?? '').join(''),
    artists,
    album,
    durationS,
    videoType: videoTypeOf(titleEndpoint) ?? videoTypeOf(overlayEndpoint),
    explicit,
    thumbnail: lastThumbnail(renderer['thumbnail']),
    greyedOut: renderer['musicItemRendererDisplayPolicy'] === 'MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT',
  };
}
