import { describe, expect, it } from 'vitest';
import {
  notMigratableReason,
  openablePlaylistId,
  parsePlaylistDetail,
  parsePlaylistListing,
  playlistKindLabel,
  playlistPath,
  playlistRelation,
  playlistsPath,
  type PlaylistSummary,
  type PlaylistTrack,
} from '../../../ui/src/api/playlists.ts';

const summary = {
  id: 'pl-1',
  name: 'Road Trip',
  description: null,
  track_count: 2,
  owner_name: 'Ada',
  is_owned: true,
  is_followed: true,
  collaborative: false,
  snapshot_id: 'snap-1',
  kind: 'PLAYLIST',
  artwork_uri: null,
};

const track = {
  title: 'One More Time',
  artist: 'Daft Punk',
  album: 'Discovery',
  duration_s: 320.4,
  isrc: 'GBDUW0000053',
  explicit: false,
  media_type: 'track',
  is_migratable: true,
  unsupported_reason: null,
  position: 0,
};

describe('playlist paths', () => {
  it('names the account and asks for a refresh only when wanted', () => {
    expect(playlistsPath('acct 1')).toBe('/api/playlists?account_id=acct+1');
    expect(playlistsPath('acct-1', true)).toBe('/api/playlists?account_id=acct-1&refresh=true');
    expect(playlistPath('pl/1', 'acct-1')).toBe('/api/playlists/pl%2F1?account_id=acct-1');
  });
});

describe('playlist parsing', () => {
  it('parses a listing with its cache facts', () => {
    const listing = parsePlaylistListing({ account_id: 'acct-1', provider: 'spotify', cached: true, fetched_at: '2026-11-21T12:00:00Z', playlists: [summary] });
    expect(listing).toMatchObject({ accountId: 'acct-1', cached: true, fetchedAt: '2026-11-21T12:00:00Z' });
    expect(listing?.playlists[0]).toMatchObject({ id: 'pl-1', trackCount: 2, isOwned: true, snapshotId: 'snap-1', kind: 'PLAYLIST' });
    expect(parsePlaylistListing({ account_id: 'acct-1', provider: 'spotify', fetched_at: 'x', playlists: [] })).toBeUndefined();
    expect(parsePlaylistListing({ account_id: 'acct-1', provider: 'spotify', cached: false, fetched_at: 'x', playlists: [{ ...summary, is_owned: 'yes' }] })).toBeUndefined();
  });

  it('parses a playlist with tracks, counting them when the engine gave no count', () => {
    const detail = parsePlaylistDetail({
      account_id: 'acct-1',
      provider: 'spotify',
      cached: false,
      fetched_at: '2026-11-21T12:00:00Z',
      playlist: { ...summary, track_count: null, tracks: [track, { ...track, title: 'Episode 12', media_type: 'episode', is_migratable: false, unsupported_reason: 'Podcast episodes cannot be migrated', isrc: null, position: 1 }] },
    });
    expect(detail?.playlist.trackCount).toBe(2);
    expect(detail?.playlist.tracks[0]).toMatchObject({ title: 'One More Time', durationS: 320.4, isrc: 'GBDUW0000053', isMigratable: true });
    expect(detail?.playlist.tracks[1]).toMatchObject({ mediaType: 'episode', isMigratable: false });
    expect(parsePlaylistDetail({ account_id: 'a', provider: 'p', cached: false, fetched_at: 'x', playlist: { ...summary, tracks: [{ artist: 'x' }] } })).toBeUndefined();
  });
});

describe('playlist words', () => {
  const base = parsePlaylistListing({ account_id: 'a', provider: 'p', cached: false, fetched_at: 'x', playlists: [summary] })?.playlists[0] as PlaylistSummary;

  it('opens the liked songs as `liked` when the service gives them no id', () => {
    expect(openablePlaylistId(base)).toBe('pl-1');
    expect(openablePlaylistId({ ...base, id: null, kind: 'LIKED_TRACKS' })).toBe('liked');
    expect(openablePlaylistId({ ...base, id: null })).toBeNull();
  });

  it('labels kinds', () => {
    expect(playlistKindLabel('LIKED_TRACKS')).toBe('Liked songs');
    expect(playlistKindLabel('PLAYLIST')).toBe('Playlist');
    expect(playlistKindLabel('MIX')).toBe('MIX');
  });

  it('says whose playlist it is', () => {
    expect(playlistRelation(base)).toBe('Yours');
    expect(playlistRelation({ ...base, isOwned: false })).toBe('Followed, by Ada');
    expect(playlistRelation({ ...base, isOwned: null, isFollowed: null, collaborative: true })).toBe('By Ada, collaborative');
    expect(playlistRelation({ ...base, kind: 'LIKED_TRACKS' })).toBe('Your library');
  });

  it('gives the reason an entry will not migrate', () => {
    const parsed = (overrides: Record<string, unknown>) =>
      parsePlaylistDetail({ account_id: 'a', provider: 'p', cached: false, fetched_at: 'x', playlist: { ...summary, tracks: [{ ...track, ...overrides }] } })?.playlist.tracks[0] as PlaylistTrack;
    expect(notMigratableReason(parsed({}))).toBeNull();
    expect(notMigratableReason(parsed({ is_migratable: false, media_type: 'local_file', unsupported_reason: 'Local files exist only on one device' }))).toBe('Local files exist only on one device');
    expect(notMigratableReason(parsed({ is_migratable: false, media_type: 'local_file' }))).toBe('Local file: other services cannot receive it');
  });
});
