import type { YtAlbum, YtArtistRef, YtVideo } from './ytmusic-catalog.ts';
import type { YtPlaylist, YtUser } from './ytmusic-state.ts';

/**
 * InnerTube renderers as the WEB_REMIX client receives them, built from the fake's state. The
 * shapes follow recorded answers (list items with flex and fixed columns, `playlistItemData`,
 * `watchEndpoint` configs carrying `musicVideoType`, two-row grid items, responsive headers), with
 * the tracking and menu noise left out: nothing a parser should depend on.
 */

type Json = Record<string, unknown>;

const text = (value: string): Json => ({ runs: [{ text: value }] });

function pageTypeConfig(pageType: string): Json {
  return { browseEndpointContextSupportedConfigs: { browseEndpointContextMusicConfig: { pageType } } };
}

export function browseRun(value: string, browseId: string, pageType: string): Json {
  return { text: value, navigationEndpoint: { browseEndpoint: { browseId, ...pageTypeConfig(pageType) } } };
}

function watchEndpoint(video: YtVideo, playlistId?: string, setVideoId?: string): Json {
  return {
    watchEndpoint: {
      videoId: video.videoId,
      ...(playlistId ? { playlistId } : {}),
      ...(setVideoId ? { playlistSetVideoId: setVideoId } : {}),
      watchEndpointMusicSupportedConfigs: { watchEndpointMusicConfig: { musicVideoType: video.videoType } },
    },
  };
}

function thumbnails(seed: string, square: boolean): Json {
  const base = square ? `https://lh3.googleusercontent.com/fake-${seed}` : `https://i.ytimg.com/vi/${seed}/sddefault.jpg`;
  return {
    musicThumbnailRenderer: {
      thumbnail: { thumbnails: square ? [{ url: `${base}=w60-h60`, width: 60, height: 60 }, { url: `${base}=w120-h120`, width: 120, height: 120 }] : [{ url: base, width: 400, height: 225 }] },
      thumbnailCrop: 'MUSIC_THUMBNAIL_CROP_UNSPECIFIED',
      thumbnailScale: 'MUSIC_THUMBNAIL_SCALE_ASPECT_FIT',
    },
  };
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function artistPageType(video: YtVideo): string {
  if (video.videoType === 'MUSIC_VIDEO_TYPE_UGC') return 'MUSIC_PAGE_TYPE_USER_CHANNEL';
  if (video.videoType === 'MUSIC_VIDEO_TYPE_PODCAST_EPISODE') return 'MUSIC_PAGE_TYPE_PODCAST_SHOW_DETAIL_PAGE';
  return 'MUSIC_PAGE_TYPE_ARTIST';
}

/** Artists as runs: "A, B & C", each linked. */
function artistRuns(video: YtVideo): Json[] {
  const runs: Json[] = [];
  video.artists.forEach((artist: YtArtistRef, index) => {
    if (index > 0) runs.push({ text: index === video.artists.length - 1 ? ' & ' : ', ' });
    runs.push(browseRun(artist.name, artist.channelId, artistPageType(video)));
  });
  return runs;
}

function flexColumn(runs: Json[] | null): Json {
  return { musicResponsiveListItemFlexColumnRenderer: { text: runs ? { runs } : {}, displayPriority: 'MUSIC_RESPONSIVE_LIST_ITEM_COLUMN_DISPLAY_PRIORITY_HIGH' } };
}

function badges(video: YtVideo): Json {
  return video.explicit ? { badges: [{ musicInlineBadgeRenderer: { icon: { iconType: 'MUSIC_EXPLICIT_BADGE' }, accessibilityData: { accessibilityData: { label: 'Explicit' } } } }] } : {};
}

/** One entry of a playlist shelf: title, artists, album, then the duration as a fixed column. */
export function playlistItem(video: YtVideo, playlistId: string, setVideoId: string, unavailable: boolean): Json {
  const albumRuns = video.album && video.album.title ? [browseRun(video.album.title, video.album.browseId, 'MUSIC_PAGE_TYPE_ALBUM')] : null;
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: thumbnails(video.videoId, video.videoType === 'MUSIC_VIDEO_TYPE_ATV'),
      overlay: { musicItemThumbnailOverlayRenderer: { content: { musicPlayButtonRenderer: { playNavigationEndpoint: watchEndpoint(video, playlistId, setVideoId) } } } },
      flexColumns: [flexColumn([{ text: video.title, navigationEndpoint: watchEndpoint(video, playlistId) }]), flexColumn(artistRuns(video)), flexColumn(albumRuns)],
      fixedColumns: [{ musicResponsiveListItemFixedColumnRenderer: { text: text(formatDuration(video.durationS)), size: 'MUSIC_RESPONSIVE_LIST_ITEM_FIXED_COLUMN_SIZE_SMALL' } }],
      ...badges(video),
      ...(unavailable ? { musicItemRendererDisplayPolicy: 'MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT' } : {}),
      playlistItemData: { playlistSetVideoId: setVideoId, videoId: video.videoId },
    },
  };
}

/** A search result: "Artist • Album • 3:45" for songs, "Artist • 1.2M views • 4:01" for videos. */
export function searchItem(video: YtVideo): Json {
  const dot = { text: ' • ' };
  const middle = video.videoType === 'MUSIC_VIDEO_TYPE_ATV' && video.album ? [browseRun(video.album.title, video.album.browseId, 'MUSIC_PAGE_TYPE_ALBUM')] : video.views ? [{ text: video.views }] : [];
  const details = [...artistRuns(video), ...middle.flatMap((run) => [dot, run]), dot, { text: formatDuration(video.durationS) }];
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: thumbnails(video.videoId, video.videoType === 'MUSIC_VIDEO_TYPE_ATV'),
      overlay: { musicItemThumbnailOverlayRenderer: { content: { musicPlayButtonRenderer: { playNavigationEndpoint: watchEndpoint(video) } } } },
      flexColumns: [flexColumn([{ text: video.title, navigationEndpoint: watchEndpoint(video) }]), flexColumn(details)],
      ...badges(video),
      playlistItemData: { videoId: video.videoId },
    },
  };
}

/** A playlist tile of the library grid: title, "Owner • N songs". */
export function playlistTile(playlist: YtPlaylist, owner: YtUser | null, browseId = `VL${playlist.id}`): Json {
  const count = playlist.entries.length;
  const subtitle = owner ? [browseRun(owner.name, owner.id, 'MUSIC_PAGE_TYPE_USER_CHANNEL'), { text: ' • ' }, { text: `${count} ${count === 1 ? 'song' : 'songs'}` }] : [{ text: 'Auto playlist' }];
  return {
    musicTwoRowItemRenderer: {
      thumbnailRenderer: thumbnails(playlist.id, true),
      title: { runs: [browseRun(playlist.title, browseId, 'MUSIC_PAGE_TYPE_PLAYLIST')] },
      subtitle: { runs: subtitle },
      navigationEndpoint: { browseEndpoint: { browseId, ...pageTypeConfig('MUSIC_PAGE_TYPE_PLAYLIST') } },
    },
  };
}

/** The grid's first tile: a button, not a playlist. */
export function newPlaylistTile(): Json {
  return { musicTwoRowItemRenderer: { title: text('New playlist'), navigationEndpoint: { createPlaylistEndpoint: { hack: true } } } };
}

export function albumTile(album: YtAlbum): Json {
  const runs: Json[] = [{ text: album.kind }, { text: ' • ' }];
  album.artists.forEach((artist, index) => {
    if (index > 0) runs.push({ text: ', ' });
    runs.push(browseRun(artist.name, artist.channelId, 'MUSIC_PAGE_TYPE_ARTIST'));
  });
  runs.push({ text: ' • ' }, { text: String(album.year) });
  return {
    musicTwoRowItemRenderer: {
      thumbnailRenderer: thumbnails(album.browseId, true),
      title: { runs: [browseRun(album.title, album.browseId, 'MUSIC_PAGE_TYPE_ALBUM')] },
      subtitle: { runs },
      navigationEndpoint: { browseEndpoint: { browseId: album.browseId, ...pageTypeConfig('MUSIC_PAGE_TYPE_ALBUM') } },
    },
  };
}

export function artistRow(artist: YtArtistRef, subscribers: string): Json {
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: thumbnails(artist.channelId, true),
      flexColumns: [flexColumn([{ text: artist.name }]), flexColumn([{ text: subscribers }])],
      navigationEndpoint: { browseEndpoint: { browseId: artist.channelId, ...pageTypeConfig('MUSIC_PAGE_TYPE_ARTIST') } },
    },
  };
}

export function continuationItem(token: string): Json {
  return { continuationItemRenderer: { trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN', continuationEndpoint: { continuationCommand: { token, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } } } };
}

export function nextContinuation(token: string): Json[] {
  return [{ nextContinuationData: { continuation: token } }];
}

/**
 * A playlist page's header. Owners get the editable header (with the privacy editor) around the
 * responsive header; everyone else the responsive header alone, with the collaborators' avatars on
 * collaborative playlists.
 */
export function playlistHeader(playlist: YtPlaylist, owner: YtUser | null, viewerId: string): Json {
  const count = playlist.entries.length;
  const responsive: Json = {
    musicResponsiveHeaderRenderer: {
      thumbnail: thumbnails(playlist.id, true),
      title: text(playlist.title),
      subtitle: { runs: [{ text: 'Playlist' }, { text: ' • ' }, { text: playlist.privacy === 'PUBLIC' ? 'Public' : playlist.privacy === 'UNLISTED' ? 'Unlisted' : 'Private' }, { text: ' • ' }, { text: String(playlist.year) }] },
      ...(owner ? { straplineTextOne: { runs: [browseRun(owner.name, owner.id, 'MUSIC_PAGE_TYPE_USER_CHANNEL')] } } : {}),
      ...(playlist.description ? { description: { musicDescriptionShelfRenderer: { description: text(playlist.description), shelfStyle: 'MUSIC_SHELF_STYLE_OPEN_DIALOG_ON_CLICK' } } } : {}),
      secondSubtitle: { runs: [{ text: `${count} ${count === 1 ? 'track' : 'tracks'}` }] },
      ...(playlist.collaborative ? { facepile: { avatarStackViewModel: { avatars: [{ avatarViewModel: { image: { sources: [{ url: `https://yt3.ggpht.com/fake-${playlist.ownerId}=s48` }] } } }], text: { content: owner?.name ?? '' } } } } : {}),
    },
  };
  if (playlist.ownerId !== viewerId) return responsive;
  return {
    musicEditablePlaylistDetailHeaderRenderer: {
      header: responsive,
      editHeader: { musicPlaylistEditHeaderRenderer: { title: text(playlist.title), ...(playlist.description ? { description: text(playlist.description) } : {}), privacy: playlist.privacy, playlistId: playlist.id } },
      playlistId: playlist.id,
    },
  };
}
