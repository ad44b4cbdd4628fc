import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseDuration, parseListItem } from '../../../plugins/providers/ytmusic/src/list-item-parser.ts';
import { countFrom, mapAlbumTile, mapArtistRow, mapPlaylistHeader, mapPlaylistTile } from '../../../plugins/providers/ytmusic/src/playlist-mapper.ts';
import { sapisidFromCookie, sapisidHashHeader, sha1Hex } from '../../../plugins/providers/ytmusic/src/sapisid-hash.ts';
import { searchRows } from '../../../plugins/providers/ytmusic/src/search-ops.ts';
import { continuationPage, findShelf, shelfPage } from '../../../plugins/providers/ytmusic/src/shelves.ts';
import { fidelityOf, mapListItem } from '../../../plugins/providers/ytmusic/src/track-mapper.ts';
import { parseYtRef, videoIdOf } from '../../../plugins/providers/ytmusic/src/ytmusic-uri.ts';

/**
 * The plugin's pure readers against InnerTube answers shaped like recorded ones (playlist rows with
 * flex and fixed columns, `playlistItemData`, watch endpoints carrying `musicVideoType`, responsive
 * and editable headers, grid tiles, search shelves, both continuation forms). Fixtures are written
 * here, trimmed to what parsers may rely on.
 */

const run = (text: string, browseId?: string, pageType?: string) => (browseId ? { text, navigationEndpoint: { browseEndpoint: { browseId, browseEndpointContextSupportedConfigs: { browseEndpointContextMusicConfig: { pageType } } } } } : { text });
const column = (runs: unknown[] | null) => ({ musicResponsiveListItemFlexColumnRenderer: { text: runs ? { runs } : {} } });
const watch = (videoId: string, videoType: string, extra: Record<string, unknown> = {}) => ({ watchEndpoint: { videoId, ...extra, watchEndpointMusicSupportedConfigs: { watchEndpointMusicConfig: { musicVideoType: videoType } } } });

function playlistRow(options: { videoId: string; setVideoId: string; title: string; videoType: string; artists: [string, string][]; album?: [string, string]; duration?: string; durationInFlex?: boolean; explicit?: boolean; greyed?: boolean }) {
  const artistRuns = options.artists.flatMap(([name, id], index) => [...(index > 0 ? [run(index === options.artists.length - 1 ? ' & ' : ', ')] : []), run(name, id, 'MUSIC_PAGE_TYPE_ARTIST')]);
  const flex = [column([{ text: options.title, navigationEndpoint: watch(options.videoId, options.videoType, { playlistId: 'PLx' }) }]), column(artistRuns)];
  if (options.durationInFlex) flex.push(column([run(options.duration ?? '')]));
  flex.push(column(options.album ? [run(options.album[0], options.album[1], 'MUSIC_PAGE_TYPE_ALBUM')] : null));
  return {
    thumbnail: { musicThumbnailRenderer: { thumbnail: { thumbnails: [{ url: 'https://lh3.googleusercontent.com/a=w60', width: 60 }, { url: 'https://lh3.googleusercontent.com/a=w120', width: 120 }] } } },
    overlay: { musicItemThumbnailOverlayRenderer: { content: { musicPlayButtonRenderer: { playNavigationEndpoint: watch(options.videoId, options.videoType, { playlistSetVideoId: options.setVideoId }) } } } },
    flexColumns: flex,
    ...(options.durationInFlex ? {} : { fixedColumns: [{ musicResponsiveListItemFixedColumnRenderer: { text: { runs: [{ text: options.duration ?? '3:00' }] } } }] }),
    ...(options.explicit ? { badges: [{ musicInlineBadgeRenderer: { icon: { iconType: 'MUSIC_EXPLICIT_BADGE' } } }] } : {}),
    ...(options.greyed ? { musicItemRendererDisplayPolicy: 'MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT' } : {}),
    playlistItemData: { playlistSetVideoId: options.setVideoId, videoId: options.videoId },
  };
}

describe('playlist rows', () => {
  it('reads title, artists, album, fixed-column duration, setVideoId and video type', () => {
    const parsed = parseListItem(playlistRow({ videoId: 'aaaaaaaaaa1', setVideoId: '3BE78EC3EFD5D50A', title: 'Paper Moon', videoType: 'MUSIC_VIDEO_TYPE_ATV', artists: [['Glass Orchard', 'UCaaaaaaaaaaaaaaaaaaaaaa'], ['Mira Vance', 'UCbbbbbbbbbbbbbbbbbbbbbb']], album: ['Tidelines', 'MPREb_abcdefghijk'], duration: '5:04', explicit: true }));
    expect(parsed).toEqual({
      videoId: 'aaaaaaaaaa1',
      setVideoId: '3BE78EC3EFD5D50A',
      title: 'Paper Moon',
      artists: [{ name: 'Glass Orchard', id: 'UCaaaaaaaaaaaaaaaaaaaaaa' }, { name: 'Mira Vance', id: 'UCbbbbbbbbbbbbbbbbbbbbbb' }],
      album: { title: 'Tidelines', id: 'MPREb_abcdefghijk' },
      durationS: 304,
      videoType: 'MUSIC_VIDEO_TYPE_ATV',
      explicit: true,
      thumbnail: 'https://lh3.googleusercontent.com/a=w120',
      greyedOut: false,
    });
  });

  it('reads the collaborative layout: duration as a flex column, a music video without album', () => {
    const parsed = parseListItem(playlistRow({ videoId: 'bbbbbbbbbb2', setVideoId: '289F4A46DF0A30D2', title: 'Never Again', videoType: 'MUSIC_VIDEO_TYPE_OMV', artists: [['Copper Tide', 'UCcccccccccccccccccccccc']], duration: '3:34', durationInFlex: true }));
    expect(parsed).toMatchObject({ durationS: 214, album: null, videoType: 'MUSIC_VIDEO_TYPE_OMV', setVideoId: '289F4A46DF0A30D2', explicit: false });
  });

  it('maps to a track with the videoType kept for matching and the entry id as source_item_id', () => {
    const track = mapListItem(parseListItem(playlistRow({ videoId: 'aaaaaaaaaa1', setVideoId: 'S1', title: 'T', videoType: 'MUSIC_VIDEO_TYPE_ATV', artists: [['A', 'UCaaaaaaaaaaaaaaaaaaaaaa'], ['B', 'UCbbbbbbbbbbbbbbbbbbbbbb']], album: ['Al', 'MPREb_abcdefghijk'], greyed: true })), 7);
    expect(track).toMatchObject({
      id: 'aaaaaaaaaa1',
      artist: 'A, B',
      artists: ['A', 'B'],
      album: 'Al',
      isrc: null,
      position: 7,
      source_position: 7,
      source_item_id: 'S1',
      media_type: 'track',
      is_migratable: true,
      provider_uris: { ytmusic: 'https://music.youtube.com/watch?v=aaaaaaaaaa1' },
      provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_ATV', albumBrowseId: 'MPREb_abcdefghijk', unavailable: true },
    });
  });

  it('classifies uploads, episodes, own uploaded files and unknown kinds', () => {
    expect(fidelityOf('MUSIC_VIDEO_TYPE_OMV')).toMatchObject({ media_type: 'track', is_migratable: true });
    expect(fidelityOf('MUSIC_VIDEO_TYPE_UGC')).toMatchObject({ media_type: 'video', is_migratable: false });
    expect(fidelityOf('MUSIC_VIDEO_TYPE_UGC').unsupported_reason).toMatch(/user-uploaded/);
    expect(fidelityOf('MUSIC_VIDEO_TYPE_PODCAST_EPISODE')).toMatchObject({ media_type: 'episode', is_migratable: false });
    expect(fidelityOf('MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK')).toMatchObject({ media_type: 'local_file', is_local: true, is_migratable: false });
    expect(fidelityOf('MUSIC_VIDEO_TYPE_SOMETHING_NEW')).toMatchObject({ media_type: 'unknown', is_migratable: false });
  });

  it('parses durations and refuses anything else', () => {
    expect(parseDuration('3:45')).toBe(225);
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('3 minutes')).toBeNull();
    expect(parseDuration(null)).toBeNull();
  });
});

describe('search rows', () => {
  const songRow = {
    flexColumns: [column([{ text: 'Golden Hour', navigationEndpoint: watch('ccccccccccc', 'MUSIC_VIDEO_TYPE_ATV') }]), column([run('Saltwater Choir', 'UCdddddddddddddddddddddd', 'MUSIC_PAGE_TYPE_ARTIST'), run(' • '), run('Blue Hours', 'MPREb_zzzzzzzzzzz', 'MUSIC_PAGE_TYPE_ALBUM'), run(' • '), run('4:01')])],
    playlistItemData: { videoId: 'ccccccccccc' },
  };
  const videoRow = {
    flexColumns: [column([{ text: 'Golden Hour (cover)', navigationEndpoint: watch('eeeeeeeeeee', 'MUSIC_VIDEO_TYPE_UGC') }]), column([run('sunset tapes', 'UCeeeeeeeeeeeeeeeeeeeeee', 'MUSIC_PAGE_TYPE_USER_CHANNEL'), run(' • '), run('52K views'), run(' • '), run('4:04')])],
    playlistItemData: { videoId: 'eeeeeeeeeee' },
  };
  const answer = { contents: { tabbedSearchResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{ musicShelfRenderer: { contents: [{ musicResponsiveListItemRenderer: songRow }, { musicResponsiveListItemRenderer: videoRow }] } }] } } } }] } } };

  it('reads "Artist • Album • duration" and "Uploader • views • duration" from one column', () => {
    const [song, video] = searchRows(answer).map((row) => mapListItem(parseListItem(row)));
    expect(song).toMatchObject({ title: 'Golden Hour', artists: ['Saltwater Choir'], album: 'Blue Hours', duration_s: 241, source_item_id: null, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_ATV' } });
    expect(video).toMatchObject({ title: 'Golden Hour (cover)', artists: ['sunset tapes'], album: null, duration_s: 244, media_type: 'video', provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_UGC' } });
  });

  it('finds no rows in a "no results" answer', () => {
    expect(searchRows({ contents: { tabbedSearchResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ messageRenderer: {} }] } }] } } } }] } } })).toEqual([]);
  });
});

describe('headers, tiles and shelves', () => {
  const responsive = {
    title: { runs: [{ text: 'Road Trip' }] },
    straplineTextOne: { runs: [run('Ada', 'UCownerownerownerowner12', 'MUSIC_PAGE_TYPE_USER_CHANNEL')] },
    description: { musicDescriptionShelfRenderer: { description: { runs: [{ text: 'Windows ' }, { text: 'down' }] } } },
    secondSubtitle: { runs: [{ text: '1,204 tracks' }, { text: ' • ' }, { text: '3+ hours' }] },
  };
  const page = (header: unknown) => ({ contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [header] } } } }] } } });

  it('tells an owned playlist by its editable header', () => {
    const owned = mapPlaylistHeader(page({ musicEditablePlaylistDetailHeaderRenderer: { header: { musicResponsiveHeaderRenderer: responsive }, editHeader: { musicPlaylistEditHeaderRenderer: { privacy: 'PRIVATE' } } } }), 'PLabc');
    expect(owned.owned).toBe(true);
    expect(owned.playlist).toMatchObject({ id: 'PLabc', name: 'Road Trip', description: 'Windows down', track_count: 1204, owner_id: 'UCownerownerownerowner12', owner_name: 'Ada', is_owned: true, collaborative: false, metadata: { privacy: 'PRIVATE' } });
  });

  it('reads a collaborative playlist of someone else as not owned', () => {
    const other = mapPlaylistHeader(page({ musicResponsiveHeaderRenderer: { ...responsive, facepile: { avatarStackViewModel: { avatars: [] } } } }), 'PLabc');
    expect(other.owned).toBe(false);
    expect(other.playlist).toMatchObject({ is_owned: false, is_followed: true, collaborative: true });
  });

  it('names a header-less album playlist after its album and counts its shelf', () => {
    const row = playlistRow({ videoId: 'aaaaaaaaaa1', setVideoId: 'S1', title: 'Opening', videoType: 'MUSIC_VIDEO_TYPE_ATV', artists: [['A', 'UCaaaaaaaaaaaaaaaaaaaaaa']], album: ['Weather Systems', 'MPREb_abcdefghijk'] });
    const answer = { contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: {} } } }], secondaryContents: { sectionListRenderer: { contents: [{ musicPlaylistShelfRenderer: { contents: [{ musicResponsiveListItemRenderer: row }], collapsedItemCount: 19 } }] } } } } };
    expect(mapPlaylistHeader(answer, 'OLAK5uy_abcdefghijklmnop')).toMatchObject({ owned: false, playlist: { name: 'Weather Systems', track_count: 19, is_owned: false } });
  });

  it('maps library tiles, skipping buttons and automatic playlists', () => {
    const tile = (browseId: string, subtitle: unknown[]) => ({ title: { runs: [{ text: 'X' }] }, subtitle: { runs: subtitle }, navigationEndpoint: { browseEndpoint: { browseId } } });
    expect(mapPlaylistTile(tile('VLPLmine', [run('Me', 'UCme', 'MUSIC_PAGE_TYPE_USER_CHANNEL'), run(' • '), run('12 songs')]), 'UCme')).toMatchObject({ id: 'PLmine', is_owned: true, is_followed: false, track_count: 12, owner_name: 'Me' });
    expect(mapPlaylistTile(tile('VLPLtheirs', [run('Them', 'UCthem', 'MUSIC_PAGE_TYPE_USER_CHANNEL'), run(' • '), run('1 song')]), 'UCme')).toMatchObject({ is_owned: false, is_followed: true, track_count: 1 });
    expect(mapPlaylistTile(tile('VLLM', [run('Auto playlist')]), 'UCme')).toBeNull();
    expect(mapPlaylistTile({ title: { runs: [{ text: 'New playlist' }] }, navigationEndpoint: { createPlaylistEndpoint: {} } }, 'UCme')).toBeNull();
    expect(countFrom('Auto playlist')).toBeNull();
  });

  it('maps album tiles and artist rows', () => {
    expect(mapAlbumTile({ title: { runs: [{ text: 'Tidelines' }] }, subtitle: { runs: [run('Album'), run(' • '), run('Glass Orchard', 'UCg', 'MUSIC_PAGE_TYPE_ARTIST'), run(' • '), run('2019')] }, navigationEndpoint: { browseEndpoint: { browseId: 'MPREb_abcdefghijk' } } })).toMatchObject({
      id: 'MPREb_abcdefghijk',
      title: 'Tidelines',
      artists: ['Glass Orchard'],
      release_date: '2019',
      release_year: 2019,
      provider_uris: { ytmusic: 'https://music.youtube.com/browse/MPREb_abcdefghijk' },
    });
    expect(mapArtistRow({ flexColumns: [column([run('Noor Amari')]), column([run('12K subscribers')])], navigationEndpoint: { browseEndpoint: { browseId: 'UCnoornoornoornoornoor12' } } })).toMatchObject({ id: 'UCnoornoornoornoornoor12', name: 'Noor Amari' });
  });

  it('reads both continuation forms', () => {
    const first = { contents: { twoColumnBrowseResultsRenderer: { secondaryContents: { sectionListRenderer: { contents: [{ musicPlaylistShelfRenderer: { contents: [{ musicResponsiveListItemRenderer: {} }, { continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: 'tok-2' } } } }] } }] } } } } };
    expect(shelfPage(findShelf(first, ['musicPlaylistShelfRenderer']))).toMatchObject({ items: [{ musicResponsiveListItemRenderer: {} }], next: 'tok-2' });
    expect(continuationPage({ onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [{ musicResponsiveListItemRenderer: {} }] } }] })).toEqual({ items: [{ musicResponsiveListItemRenderer: {} }], next: null });
    expect(continuationPage({ continuationContents: { gridContinuation: { items: [{ musicTwoRowItemRenderer: {} }], continuations: [{ nextContinuationData: { continuation: 'tok-3' } }] } } })).toEqual({ items: [{ musicTwoRowItemRenderer: {} }], next: 'tok-3' });
  });
});

describe('SAPISIDHASH', () => {
  it('computes SHA-1 exactly as node:crypto does, for ASCII and multi-byte input', () => {
    for (const input of ['', 'abc', '1700000000 AbCdEf/123 https://music.youtube.com', 'ü€𝄞'.repeat(40), 'x'.repeat(1000)]) {
      expect(sha1Hex(input)).toBe(createHash('sha1').update(input, 'utf8').digest('hex'));
    }
  });

  it('signs with the SAPISID of the cookie (or its __Secure-3PAPISID twin)', () => {
    expect(sapisidFromCookie('SID=x; SAPISID=abc/DEF; PREF=1')).toBe('abc/DEF');
    expect(sapisidFromCookie('__Secure-3PAPISID=zz9; SID=x')).toBe('zz9');
    expect(sapisidFromCookie('SID=x')).toBeNull();
    expect(sapisidHashHeader('abc', 1700000000, 'https://music.youtube.com')).toBe(`SAPISIDHASH 1700000000_${createHash('sha1').update('1700000000 abc https://music.youtube.com').digest('hex')}`);
  });
});

describe('links', () => {
  it('accepts YouTube Music and YouTube links and normalizes tracks to music.youtube.com', () => {
    expect(parseYtRef('https://music.youtube.com/watch?v=lYBUbBu4W08&list=PLx')).toEqual({ entity: 'track', id: 'lYBUbBu4W08', uri: 'https://music.youtube.com/watch?v=lYBUbBu4W08' });
    expect(videoIdOf('https://youtu.be/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(videoIdOf('https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(parseYtRef('https://music.youtube.com/playlist?list=PLxyTaDz8f5PBc-8kE36gvB-eflhODG2dw')).toMatchObject({ entity: 'playlist', id: 'PLxyTaDz8f5PBc-8kE36gvB-eflhODG2dw' });
    expect(parseYtRef('https://music.youtube.com/browse/MPREb_dcYZhAh5urI')).toMatchObject({ entity: 'album' });
    expect(parseYtRef('https://music.youtube.com/channel/UCwZEU0wAwIyZb4x5G_KJp2w')).toMatchObject({ entity: 'artist' });
  });

  it('refuses other hosts, bare words and other providers\' URIs', () => {
    expect(parseYtRef('https://example.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(parseYtRef('spotify:track:4uLU6hMCjMI75M1A2tKUQC')).toBeNull();
    expect(parseYtRef('hello_world')).toBeNull();
    expect(videoIdOf('https://music.youtube.com/watch?v=short')).toBeNull();
  });
});
