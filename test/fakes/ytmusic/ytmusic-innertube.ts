import { bearerToken, type FakeRequest } from '../fake-provider.ts';
import type { YtVideo } from './ytmusic-catalog.ts';
import { albumTile, artistRow, continuationItem, newPlaylistTile, nextContinuation, playlistHeader, playlistItem, playlistTile, searchItem } from './ytmusic-renderers.ts';
import { playerAnswer } from './ytmusic-player.ts';
import { googleError, json, MESSAGES, responseContext, type Reply } from './ytmusic-responses.ts';
import { LIKED_MUSIC_ID, sapisidHash, setVideoId, YOUTUBE_SCOPE, type YtPlaylist, type YtState, type YtUser } from './ytmusic-state.ts';

/**
 * The InnerTube endpoints of `https://music.youtube.com/youtubei/v1/` the plugin uses: `browse`
 * (playlist pages, the library grids and shelves, continuations), `search` (songs or videos by
 * `params`), `player` (one video's details), `playlist/create`, `browse/edit_playlist` (add,
 * remove by `setVideoId`, move, rename), `playlist/delete` and `account/account_menu`. Every call
 * is a POST of JSON carrying `context.client` = WEB_REMIX, authenticated by an OAuth bearer token
 * (TV device flow) or by a browser cookie with its `SAPISIDHASH` authorization.
 */

export const API_PREFIX = '/youtubei/v1/';
/** `params` of the search filters: songs and videos. */
export const SEARCH_PARAMS = { songs: 'EgWKAQIIAWoMEA4QChADEAQQCRAF', videos: 'EgWKAQIQAWoMEA4QChADEAQQCRAF' } as const;
/** Entries per edit_playlist request the fake accepts (the real limit is not published; this is conservative). */
export const MAX_EDIT_ACTIONS = 100;
const SEARCH_RESULTS = 20;

export interface InnerTubeOptions {
  /** Entries per playlist page (YouTube Music: 100). */
  readonly playlistPageSize: number;
  /** Tiles per library grid or shelf page. */
  readonly libraryPageSize: number;
}

interface Cursor {
  readonly kind: 'playlist' | 'playlists' | 'albums' | 'artists';
  readonly id: string;
  readonly offset: number;
}

function encodeToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeToken(token: string): Cursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof parsed.kind !== 'string' || typeof parsed.id !== 'string' || typeof parsed.offset !== 'number') return null;
    return parsed as Cursor;
  } catch {
    return null;
  }
}

function normalize(value: string): string[] {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

type Body = Record<string, unknown>;

export class InnerTube {
  readonly #state: YtState;
  readonly #options: InnerTubeOptions;

  constructor(state: YtState, options: InnerTubeOptions) {
    this.#state = state;
    this.#options = options;
  }

  handle(request: FakeRequest): Reply {
    if (request.method !== 'POST') return googleError(405, 'Method Not Allowed');
    let body: Body;
    try {
      body = JSON.parse(request.body || '{}') as Body;
    } catch {
      return googleError(400, 'Invalid JSON payload received.');
    }
    const client = ((body['context'] as Body | undefined)?.['client'] ?? {}) as Body;
    if (client['clientName'] !== 'WEB_REMIX' || typeof client['clientVersion'] !== 'string') return googleError(400, MESSAGES.invalidArgument);
    const auth = this.#authenticate(request);
    if ('reply' in auth) return auth.reply;
    const user = auth.user;
    switch (request.path.slice(API_PREFIX.length)) {
      case 'browse':
        return this.#browse(user, body, request.url.searchParams);
      case 'search':
        return this.#search(body);
      case 'player':
        return playerAnswer(this.#state.catalog, this.#state.unavailable, body);
      case 'playlist/create':
        return this.#create(user, body);
      case 'browse/edit_playlist':
        return this.#edit(user, body);
      case 'playlist/delete':
        return this.#delete(user, body);
      case 'account/account_menu':
        return this.#accountMenu(user);
      default:
        return googleError(404, MESSAGES.notFound);
    }
  }

  #authenticate(request: FakeRequest): { user: YtUser } | { reply: Reply } {
    const token = bearerToken(request.headers);
    if (token) {
      const grant = this.#state.accessTokens.get(token);
      if (!grant || grant.expired || grant.expiresAt < Date.now()) return { reply: googleError(401, MESSAGES.unauthenticated) };
      if (!grant.scopes.includes(YOUTUBE_SCOPE)) return { reply: googleError(403, MESSAGES.insufficientScope, {}, 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') };
      return { user: this.#state.users.get(grant.userId)! };
    }
    // A browser session: the SAPISID cookie, proven by the SAPISIDHASH of a recent timestamp.
    const sapisid = /(?:^|;\s*)SAPISID=([^;]+)/.exec(request.headers['cookie'] ?? '')?.[1];
    const hash = /^SAPISIDHASH (\d+)_([0-9a-f]{40})$/.exec(request.headers['authorization'] ?? '');
    if (sapisid && hash) {
      const userId = this.#state.cookieSessions.get(sapisid);
      const timestamp = Number(hash[1]);
      const fresh = Math.abs(Date.now() / 1000 - timestamp) < 3600;
      if (userId && fresh && sapisidHash(sapisid, timestamp) === `SAPISIDHASH ${hash[1]}_${hash[2]}`) return { user: this.#state.users.get(userId)! };
    }
    return { reply: googleError(401, MESSAGES.unauthenticated) };
  }

  // ---- browse ---------------------------------------------------------------------------------

  #browse(user: YtUser, body: Body, query: URLSearchParams): Reply {
    const continuation = typeof body['continuation'] === 'string' ? body['continuation'] : query.get('ctoken') ?? query.get('continuation');
    if (continuation) {
      const cursor = decodeToken(continuation);
      if (!cursor) return googleError(400, MESSAGES.invalidArgument);
      return this.#continue(user, cursor);
    }
    const browseId = typeof body['browseId'] === 'string' ? body['browseId'] : '';
    if (browseId === 'FEmusic_liked_playlists') return this.#libraryGrid(user, 'playlists', 0, false);
    if (browseId === 'FEmusic_liked_albums') return this.#libraryGrid(user, 'albums', 0, false);
    if (browseId === 'FEmusic_library_corpus_artists') return this.#artists(user, 0, false);
    if (browseId.startsWith('VL')) return this.#playlistPage(user, browseId.slice(2));
    return googleError(404, MESSAGES.notFound);
  }

  #continue(user: YtUser, cursor: Cursor): Reply {
    if (cursor.kind === 'playlists' || cursor.kind === 'albums') return this.#libraryGrid(user, cursor.kind, cursor.offset, true);
    if (cursor.kind === 'artists') return this.#artists(user, cursor.offset, true);
    const playlist = this.#visiblePlaylist(user, cursor.id);
    if (!playlist) return googleError(404, MESSAGES.notFound);
    const { items } = this.#playlistItems(user, playlist, cursor.id, cursor.offset);
    return json(200, { responseContext: responseContext(), onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items, targetId: cursor.id } }] });
  }

  #visiblePlaylist(user: YtUser, id: string): YtPlaylist | null {
    const playlist = this.#state.playlistFor(user.id, id);
    if (!playlist) return null;
    // Someone else's private playlist does not exist for this viewer.
    if (playlist.ownerId !== user.id && playlist.privacy === 'PRIVATE') return null;
    return playlist;
  }

  #playlistItems(user: YtUser, playlist: YtPlaylist, requestedId: string, offset: number): { items: unknown[] } {
    const size = this.#options.playlistPageSize;
    const slice = playlist.entries.slice(offset, offset + size);
    const items: unknown[] = slice.map((entry) => playlistItem(this.#state.catalog.videos.get(entry.videoId)!, requestedId, entry.setVideoId, this.#state.unavailable.has(entry.videoId)));
    if (offset + size < playlist.entries.length) items.push(continuationItem(encodeToken({ kind: 'playlist', id: requestedId, offset: offset + size })));
    void user;
    return { items };
  }

  #playlistPage(user: YtUser, id: string): Reply {
    const playlist = this.#visiblePlaylist(user, id);
    if (!playlist) return googleError(404, MESSAGES.notFound);
    const liked = id === LIKED_MUSIC_ID;
    const owner = liked ? null : (this.#state.users.get(playlist.ownerId) ?? null);
    // Liked Music is an automatic playlist: nobody edits its header.
    const header = playlistHeader(playlist, owner, liked ? '' : user.id);
    const { items } = this.#playlistItems(user, playlist, id, 0);
    return json(200, {
      responseContext: responseContext(),
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [header] } } } }],
          secondaryContents: {
            sectionListRenderer: {
              contents: [{ musicPlaylistShelfRenderer: { playlistId: id, contents: items, collapsedItemCount: playlist.entries.length, contentsMultiSelectable: true, targetId: id } }],
            },
          },
        },
      },
      microformat: { microformatDataRenderer: { urlCanonical: `https://music.youtube.com/playlist?list=${id}`, title: playlist.title, description: playlist.description } },
    });
  }

  #libraryGrid(user: YtUser, kind: 'playlists' | 'albums', offset: number, continued: boolean): Reply {
    const tiles: unknown[] =
      kind === 'playlists'
        ? [
            newPlaylistTile(),
            playlistTile(this.#state.likedPlaylist(user.id), null, `VL${LIKED_MUSIC_ID}`),
            ...user.playlists.map((id) => this.#state.playlists.get(id)).filter((playlist): playlist is YtPlaylist => !!playlist).map((playlist) => playlistTile(playlist, this.#state.users.get(playlist.ownerId) ?? null)),
          ]
        : user.savedAlbums.map((id) => albumTile(this.#state.catalog.albums.get(id)!));
    const size = this.#options.libraryPageSize;
    const items = tiles.slice(offset, offset + size);
    const more = offset + size < tiles.length ? { continuations: nextContinuation(encodeToken({ kind, id: kind, offset: offset + size })) } : {};
    if (continued) return json(200, { responseContext: responseContext(), continuationContents: { gridContinuation: { items, ...more } } });
    return json(200, {
      responseContext: responseContext(),
      contents: { singleColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{ gridRenderer: { items, ...more } }] } } } }] } },
    });
  }

  #artists(user: YtUser, offset: number, continued: boolean): Reply {
    const size = this.#options.libraryPageSize;
    const rows = user.subscriptions.map((id) => this.#state.catalog.artists.get(id)).filter((artist) => artist !== undefined);
    const contents = rows.slice(offset, offset + size).map((artist, index) => artistRow(artist, `${(offset + index) * 13 + 2}K subscribers`));
    const more = offset + size < rows.length ? { continuations: nextContinuation(encodeToken({ kind: 'artists', id: 'artists', offset: offset + size })) } : {};
    if (continued) return json(200, { responseContext: responseContext(), continuationContents: { musicShelfContinuation: { contents, ...more } } });
    return json(200, {
      responseContext: responseContext(),
      contents: { singleColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{ musicShelfRenderer: { contents, ...more } }] } } } }] } },
    });
  }

  // ---- search ---------------------------------------------------------------------------------

  #search(body: Body): Reply {
    const query = typeof body['query'] === 'string' ? body['query'] : '';
    const params = body['params'];
    const wanted = normalize(query);
    const accepts = (video: YtVideo) =>
      params === SEARCH_PARAMS.songs ? video.videoType === 'MUSIC_VIDEO_TYPE_ATV' : params === SEARCH_PARAMS.videos ? video.videoType === 'MUSIC_VIDEO_TYPE_OMV' || video.videoType === 'MUSIC_VIDEO_TYPE_UGC' : video.videoType !== 'MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK';
    const hits: { video: YtVideo; score: number }[] = [];
    if (wanted.length > 0) {
      for (const video of this.#state.catalog.videos.values()) {
        if (!accepts(video)) continue;
        const title = normalize(video.title);
        const haystack = new Set([...title, ...video.artists.flatMap((artist) => normalize(artist.name)), ...normalize(video.album?.title ?? '')]);
        if (!wanted.every((word) => haystack.has(word))) continue;
        hits.push({ video, score: wanted.filter((word) => title.includes(word)).length * 10 - title.length });
      }
    }
    hits.sort((a, b) => b.score - a.score);
    const found = hits.slice(0, SEARCH_RESULTS).map((hit) => searchItem(hit.video));
    const title = params === SEARCH_PARAMS.songs ? 'Songs' : params === SEARCH_PARAMS.videos ? 'Videos' : 'Top results';
    const section = found.length > 0 ? { musicShelfRenderer: { title: { runs: [{ text: title }] }, contents: found } } : { itemSectionRenderer: { contents: [{ messageRenderer: { text: { runs: [{ text: 'No results found' }] } } }] } };
    return json(200, { responseContext: responseContext(), contents: { tabbedSearchResultsRenderer: { tabs: [{ tabRenderer: { title: 'YT Music', selected: true, content: { sectionListRenderer: { contents: [section] } } } }] } } });
  }

  // ---- writes ---------------------------------------------------------------------------------

  #create(user: YtUser, body: Body): Reply {
    const title = typeof body['title'] === 'string' ? body['title'] : '';
    const description = typeof body['description'] === 'string' ? body['description'] : '';
    const privacy = body['privacyStatus'] ?? 'PRIVATE';
    if (title.trim() === '' || title.length > 150 || /[<>]/.test(title) || /[<>]/.test(description) || description.length > 5000) return googleError(400, MESSAGES.invalidArgument);
    if (privacy !== 'PRIVATE' && privacy !== 'PUBLIC' && privacy !== 'UNLISTED') return googleError(400, MESSAGES.invalidArgument);
    const videoIds = Array.isArray(body['videoIds']) ? body['videoIds'].filter((id): id is string => typeof id === 'string') : [];
    if (videoIds.some((id) => !this.#state.catalog.videos.has(id))) return googleError(400, MESSAGES.invalidArgument);
    const playlist = this.#state.createPlaylist(user.id, title, { description, privacy, videoIds });
    user.playlists.unshift(playlist.id);
    return json(200, { responseContext: responseContext(), playlistId: playlist.id });
  }

  #edit(user: YtUser, body: Body): Reply {
    const rawId = typeof body['playlistId'] === 'string' ? body['playlistId'] : '';
    const id = rawId.startsWith('VL') ? rawId.slice(2) : rawId;
    const playlist = this.#visiblePlaylist(user, id);
    if (!playlist || id === LIKED_MUSIC_ID) return googleError(404, MESSAGES.notFound);
    if (!this.#state.canEdit(user.id, playlist)) return googleError(403, MESSAGES.permissionDenied);
    const actions = Array.isArray(body['actions']) ? (body['actions'] as Body[]) : [];
    if (actions.length === 0 || actions.length > MAX_EDIT_ACTIONS) return googleError(400, MESSAGES.invalidArgument);
    // Validate everything first: an edit applies completely or not at all.
    const entries = [...playlist.entries];
    const present = new Set(entries.map((entry) => entry.videoId));
    for (const action of actions) {
      switch (action['action']) {
        case 'ACTION_ADD_VIDEO': {
          const videoId = action['addedVideoId'];
          if (typeof videoId !== 'string' || !this.#state.catalog.videos.has(videoId)) return googleError(400, MESSAGES.invalidArgument);
          // Without DEDUPE_OPTION_SKIP YouTube Music asks before adding a song that is already there.
          if (action['dedupeOption'] !== 'DEDUPE_OPTION_SKIP' && present.has(videoId)) return duplicateRefusal();
          present.add(videoId);
          break;
        }
        case 'ACTION_REMOVE_VIDEO': {
          const entry = entries.find((candidate) => candidate.setVideoId === action['setVideoId']);
          if (!entry || entry.videoId !== action['removedVideoId']) return googleError(400, MESSAGES.invalidArgument);
          break;
        }
        case 'ACTION_MOVE_VIDEO_BEFORE':
          if (typeof action['setVideoId'] !== 'string') return googleError(400, MESSAGES.invalidArgument);
          break;
        case 'ACTION_SET_PLAYLIST_NAME':
          if (typeof action['playlistName'] !== 'string' || action['playlistName'].trim() === '' || action['playlistName'].length > 150) return googleError(400, MESSAGES.invalidArgument);
          break;
        case 'ACTION_SET_PLAYLIST_DESCRIPTION':
          if (typeof action['playlistDescription'] !== 'string' || /[<>]/.test(action['playlistDescription'])) return googleError(400, MESSAGES.invalidArgument);
          break;
        default:
          return googleError(400, MESSAGES.invalidArgument);
      }
    }
    const results: unknown[] = [];
    let working = [...playlist.entries];
    for (const action of actions) {
      if (action['action'] === 'ACTION_ADD_VIDEO') {
        const entry = { setVideoId: setVideoId(), videoId: action['addedVideoId'] as string };
        working.push(entry);
        results.push({ playlistEditVideoAddedResultData: { videoId: entry.videoId, setVideoId: entry.setVideoId } });
      } else if (action['action'] === 'ACTION_REMOVE_VIDEO') {
        working = working.filter((entry) => entry.setVideoId !== action['setVideoId']);
      } else if (action['action'] === 'ACTION_MOVE_VIDEO_BEFORE') {
        const moving = working.find((entry) => entry.setVideoId === action['setVideoId']);
        if (!moving) return googleError(400, MESSAGES.invalidArgument);
        working = working.filter((entry) => entry !== moving);
        // Without a successor the entry goes to the end; a successor that is not in the playlist
        // (a stale id) is refused, and the whole edit with it.
        const named = action['movedSetVideoIdSuccessor'];
        const successor = named === undefined || named === null ? working.length : working.findIndex((entry) => entry.setVideoId === named);
        if (successor < 0) return googleError(400, MESSAGES.invalidArgument);
        working.splice(successor, 0, moving);
      } else if (action['action'] === 'ACTION_SET_PLAYLIST_NAME') {
        playlist.title = action['playlistName'] as string;
      } else if (action['action'] === 'ACTION_SET_PLAYLIST_DESCRIPTION') {
        playlist.description = action['playlistDescription'] as string;
      }
    }
    playlist.entries = working;
    return json(200, { responseContext: responseContext(), status: 'STATUS_SUCCEEDED', playlistEditResults: results, actions: [toast('Saved to playlist')] });
  }

  #delete(user: YtUser, body: Body): Reply {
    const rawId = typeof body['playlistId'] === 'string' ? body['playlistId'] : '';
    const id = rawId.startsWith('VL') ? rawId.slice(2) : rawId;
    const playlist = this.#visiblePlaylist(user, id);
    if (!playlist || id === LIKED_MUSIC_ID) return googleError(404, MESSAGES.notFound);
    if (playlist.ownerId !== user.id) return googleError(403, MESSAGES.permissionDenied);
    this.#state.playlists.delete(id);
    for (const someone of this.#state.users.values()) {
      const index = someone.playlists.indexOf(id);
      if (index >= 0) someone.playlists.splice(index, 1);
    }
    return json(200, { responseContext: responseContext() });
  }

  #accountMenu(user: YtUser): Reply {
    return json(200, {
      responseContext: responseContext(),
      actions: [
        {
          openPopupAction: {
            popup: {
              multiPageMenuRenderer: {
                header: { activeAccountHeaderRenderer: { accountName: { runs: [{ text: user.name }] }, channelHandle: { runs: [{ text: user.handle }] }, accountPhoto: { thumbnails: [{ url: `https://yt3.ggpht.com/fake-${user.id}=s88`, width: 88, height: 88 }] } } },
                sections: [{ multiPageMenuSectionRenderer: { items: [{ compactLinkRenderer: { title: { runs: [{ text: 'Your channel' }] }, navigationEndpoint: { browseEndpoint: { browseId: user.id } } } }] } }],
              },
            },
            popupType: 'DROPDOWN',
          },
        },
      ],
    });
  }
}

function toast(message: string): unknown {
  return { addToToastAction: { item: { notificationActionRenderer: { responseText: { runs: [{ text: message }] } } } } };
}

/** The answer to adding a song already in the playlist without `DEDUPE_OPTION_SKIP`: nothing added. */
function duplicateRefusal(): Reply {
  return json(200, {
    responseContext: responseContext(),
    status: 'STATUS_FAILED',
    actions: [{ confirmDialogEndpoint: { content: { confirmDialogRenderer: { title: { runs: [{ text: 'Already added' }] }, dialogMessages: [{ runs: [{ text: 'This song is already in your playlist.' }] }] } } } }],
  });
}
