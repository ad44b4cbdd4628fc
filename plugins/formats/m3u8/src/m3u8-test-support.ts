/** What the M3U plugin's tests share: parsing through the plugin and a rich pair of playlists. */
import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse } from '@opl/plugin-sdk/testing';
import plugin from './index.ts';

export const encoder = new TextEncoder();

export const parse = (bytes: Uint8Array, filename: string | null = 'list.m3u8') => runParse(plugin, bytes, { filename, mediaType: 'audio/x-mpegurl' });

export const parseText = (text: string, filename?: string | null) => parse(encoder.encode(text), filename);

export const richPlaylists: PlaylistInput[] = [
  {
    id: '37i9dQZF1DXcBWIGoYBM5M',
    name: 'J-Pop 名曲 / Русский рок',
    description: 'Любимые песни —\nお気に入り \\ #EXTINF:1,x',
    owner_id: 'owner-1',
    owner_name: 'Ana',
    photo: 'https://img.example/p.jpg',
    artwork_uri: 'https://img.example/cover.jpg',
    created_at: '2023-12-31T23:59:59Z',
    updated_at: '2024-05-01T10:00:00.250+09:00',
    snapshot_id: 'snap',
    track_count: 4,
    is_owned: true,
    is_followed: false,
    collaborative: false,
    kind: 'PLAYLIST',
    provider_uris: { spotify: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M' },
    metadata: { note: 'line\r\nbreak', nested: { a: [1, 2] } },
    tracks: [
      {
        id: 'trk-1',
        source_item_id: 'set-1',
        title: '花束を君に',
        artist: '宇多田ヒカル',
        artists: ['宇多田ヒカル'],
        album: 'Fantôme',
        duration_s: 282,
        isrc: 'JPB601601133',
        release_date: '2016-09-28',
        release_year: 2016,
        genre: 'J-Pop',
        track_number: 1,
        disc_number: 1,
        explicit: false,
        composer: 'Hikaru Utada',
        credits: [{ role: 'producer', name: 'Hikaru Utada', instrument: null, uri: null }],
        label: 'Virgin',
        artwork_uri: 'https://img.example/a.jpg',
        provider_uris: { spotify: 'spotify:track:2x' },
        added_at: '2024-01-01T00:00:00Z',
        source_position: 0,
        provider_metadata: { popularity: 70 },
      },
      { id: 'trk-2', title: 'Группа крови', artist: 'Кино', duration_s: 285.6, provider_uris: { tidal: 'tidal:track:4242' } },
      // A duplicate entry: kept twice, in place.
      { id: 'trk-1', source_item_id: 'set-3', title: '花束を君に', artist: '宇多田ヒカル', provider_uris: { spotify: 'spotify:track:2x' } },
      {
        id: 'ep-1',
        title: 'Episode - Part 1',
        artist: '',
        media_type: 'episode',
        is_migratable: false,
        unsupported_reason: 'podcast episodes are not migrated',
        provider_uris: { spotify: 'spotify:episode:9z', youtube: 'https://music.youtube.com/watch?v=abc' },
      },
      { title: 'Local - Song', artist: 'A - B', media_type: 'local_file', is_local: true, is_migratable: false, metadata: { location: 'C:\\Music\\a.mp3' } },
      { title: '  spaced  ', artist: 'AC-DC', duration_s: 0 },
    ],
  },
  { id: 'empty', name: 'Nothing yet', kind: 'LIKED_TRACKS' },
  { id: 'p3', name: 'Third', tracks: [{ title: 'x', artist: 'y', provider_uris: { deezer: 'deezer:track:1' } }] },
];

/** The models the host would hold, with positions as a reader assigns them (0-based in the read playlist). */
export function normalized(playlists: PlaylistInput[]) {
  return FORMAT_OPERATIONS.serialize.input.parse({ playlists }).playlists.map((playlist) => ({
    ...playlist,
    tracks: playlist.tracks.map((track, index) => ({ ...track, position: index })),
  }));
}
