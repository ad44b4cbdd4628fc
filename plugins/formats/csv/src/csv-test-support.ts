/** What the CSV plugin's tests share: parsing through the plugin, fixture files and the export header. */
// eslint-disable-next-line no-restricted-imports -- a unit test reads its fixture file; tests run in Node and are never bundled
import { readFileSync } from 'node:fs';
import type { PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse } from '@opl/plugin-sdk/testing';
import plugin from './index.ts';


export const encoder = new TextEncoder();

export const parse = (bytes: Uint8Array, filename: string | null = 'export.csv') => runParse(plugin, bytes, { filename, mediaType: 'text/csv' });

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

export const V1_HEADER = 'schema_version,playlist_id,playlist_name,playlist_description,playlist_kind,playlist_owner_id,playlist_artwork_uri,playlist_created_at,playlist_updated_at,order,source_position,track_id,source_item_id,title,artist,album,duration_seconds,isrc,source_uri,artwork_uri,added_at,media_type,unsupported_reason';

export const richPlaylists: PlaylistInput[] = [
  {
    id: '37i9dQZF1DXcBWIGoYBM5M',
    name: 'J-Pop 名曲 / Русский рок, "best"',
    description: 'Любимые песни — お気に入り\r\nsecond line; with "quotes", commas\tand a tab',
    owner_id: 'owner-1',
    artwork_uri: 'https://img.example/cover.jpg',
    created_at: '2023-12-31T23:59:59Z',
    updated_at: '2024-05-01T10:00:00.250+09:00',
    tracks: [
      {
        id: 'trk-1',
        source_item_id: 'set-1',
        title: '花束を君に',
        artist: '宇多田ヒカル',
        album: 'Fantôme',
        duration_s: 282,
        isrc: 'JPB601601133',
        provider_uris: { spotify: 'spotify:track:2x' },
        artwork_uri: 'https://img.example/a.jpg',
        added_at: '2024-01-01T00:00:00Z',
        source_position: 0,
      },
      { id: 'trk-2', title: 'Группа крови', artist: 'Кино', album: 'Группа крови', duration_s: 286, provider_uris: { spotify: 'spotify:track:3y' }, source_position: 1 },
      // A duplicate entry: kept twice, in place.
      { id: 'trk-1', source_item_id: 'set-3', title: '花束を君に', artist: '宇多田ヒカル', album: 'Fantôme', duration_s: 282, isrc: 'JPB601601133', provider_uris: { spotify: 'spotify:track:2x' }, source_position: 2 },
      { title: '=Formula? -No @all +ok', artist: "'Til Tuesday", album: "'=SUM(A1)", media_type: 'episode', unsupported_reason: 'podcast episodes are not migrated', source_position: 3 },
      { title: 'Lokale Datei 🎵', artist: 'Ich', media_type: 'local_file', is_local: true, unsupported_reason: 'local file', provider_uris: {} },
    ],
  },
  { id: 'empty-1', name: 'Nothing yet', kind: 'LIKED_TRACKS' },
  { id: 'pl-3', name: 'Third', tracks: [{ title: 'Один', artist: 'Ария' }] },
  { id: 'empty-2', name: 'Also empty' },
];
