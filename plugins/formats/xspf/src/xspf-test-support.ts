/** What the XSPF plugin's tests share: parsing and exporting through the plugin, and the documents they read. */
import type { TrackInput } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { expect } from 'vitest';
import plugin from './index.ts';


export const encoder = new TextEncoder();

export async function exported(playlist: PlaylistInput, options: Record<string, unknown> = {}): Promise<string> {
  return (await runSerialize(plugin, [playlist], options)).text;
}

export const parse = (file: Uint8Array | string, filename: string | null = 'list.xspf') => runParse(plugin, file, { filename });

export async function refusal(bytes: Uint8Array | string, filename: string | null = 'list.xspf'): Promise<string> {
  try {
    await parse(bytes, filename);
  } catch (error) {
    expect((error as { type?: string }).type).toBe('InvalidInput');
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

/** What a playlist becomes after the host validates it (defaults filled in). */
export function normalized(playlist: PlaylistInput) {
  const full = FORMAT_OPERATIONS.parse.output.parse({ playlists: [playlist], issues: [] }).playlists[0]!;
  return { ...full, tracks: full.tracks.map((track, index) => ({ ...track, position: index })) };
}

export const rich: PlaylistInput = {
  id: '37i9dQZF1DXcBWIGoYBM5M',
  name: '  J-Pop 名曲 / Русский рок & <friends> ',
  description: 'Любимые песни — お気に入り\nline two\r\nwith CR',
  photo: 'https://img.example/photo.jpg',
  owner_id: 'owner-1',
  owner_name: 'Ünïcode Owner',
  created_at: '2023-12-31T23:59:59Z',
  updated_at: '2024-05-01T10:00:00.250+09:00',
  artwork_uri: 'https://img.example/cover.jpg',
  snapshot_id: 'snap-1',
  is_owned: true,
  is_followed: false,
  collaborative: null,
  track_count: 4,
  provider_uris: { spotify: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M', tidal: 'tidal:playlist:abc' },
  metadata: { nested: { list: [1, 'two', null], flag: true }, quote: '"\'<>&' },
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
      track_number: 3,
      disc_number: 1,
      explicit: false,
      composer: 'Utada',
      credits: [{ role: 'producer', name: 'A & B', instrument: null, uri: 'spotify:artist:x' }],
      label: 'Epic',
      provider_uris: { spotify: 'spotify:track:2xAmple', tidal: 'tidal:track:123', deezer: 'deezer:track:9' },
      artwork_uri: 'https://img.example/a.jpg',
      added_at: '2024-01-01T00:00:00Z',
      source_position: 0,
      provider_metadata: { videoType: 'MUSIC', popularity: 71 },
    },
    // A duplicate, in place, with a fractional duration and track number 0 (not an XSPF trackNum).
    { id: 'trk-1', title: '花束を君に', artist: '宇多田ヒカル', duration_s: 282.0005, track_number: 0, provider_uris: { spotify: 'spotify:track:2xAmple' }, source_position: 1 },
    {
      title: 'Bad\u0000chars\u0007 ]]> here',
      artist: "'Til Tuesday",
      media_type: 'episode',
      is_migratable: false,
      unsupported_reason: 'podcast episodes are not migrated',
      provider_uris: { spotify: 'spotify:episode:abc' },
      explicit: true,
    },
    {
      title: 'Song',
      artist: 'Someone',
      media_type: 'local_file',
      is_local: true,
      is_migratable: false,
      unsupported_reason: 'local file',
      metadata: { location: 'file:///home/me/Music/Song.mp3' },
    },
  ],
};



/** The `<location>` texts of an exported document, in order (XML-unescaped). */
export function locationsOf(text: string): string[] {
  return [...text.matchAll(/<location>(.*?)<\/location>/g)].map((match) => match[1]!.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'));
}

/** A local-file track as the M3U, PLS and WPL readers make it: the line as written in `metadata.location`. */
export function localTrack(location: string, title = 'Song'): TrackInput {
  return { title, artist: 'A', media_type: 'local_file', is_local: true, is_migratable: false, unsupported_reason: 'local file', metadata: { location, local_path: location } };
}

/** The document as software that does not know our extension sees it: only the standard elements. */
export function withoutOurExtension(text: string): string {
  return text.replace(/\n *<extension application="https:\/\/open-playlist\.org\/ns\/xspf\/1">[\s\S]*?<\/extension>/g, '');
}


export const XSPF_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/">\n';

/** An XSPF as VLC writes one (tabs, absolute file: URIs, its own extension), plus relative references as other players write them. */
export const VLC_LIKE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<playlist xmlns="http://xspf.org/ns/0/" xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/" version="1">',
  '\t<title>Wiedergabeliste</title>',
  '\t<trackList>',
  '\t\t<track>',
  '\t\t\t<location>file:///home/u/Music/a%20b.mp3</location>',
  '\t\t\t<title>A B</title>',
  '\t\t\t<duration>215000</duration>',
  '\t\t\t<extension application="http://www.videolan.org/vlc/playlist/0">',
  '\t\t\t\t<vlc:id>0</vlc:id>',
  '\t\t\t</extension>',
  '\t\t</track>',
  '\t\t<track>',
  '\t\t\t<location>file:///C:/Users/u/Music/Bj%C3%B6rk%20-%20J%C3%B3ga.flac</location>',
  '\t\t\t<extension application="http://www.videolan.org/vlc/playlist/0"><vlc:id>1</vlc:id></extension>',
  '\t\t</track>',
  '\t\t<track><location>file://nas/share/%231%20hit.ogg</location></track>',
  '\t\t<track><location>Music/a%20b.mp3</location></track>',
  '\t\t<track><location>../x/%C3%A9t%C3%A9.flac</location></track>',
  '\t\t<track><location>file:///home/u/%E9t%E9.mp3</location></track>',
  '\t\t<track><location>Music/%zz.mp3</location></track>',
  '\t\t<track><location>http://radio.example/live%20stream.mp3</location></track>',
  '\t</trackList>',
  '\t<extension application="http://www.videolan.org/vlc/playlist/0">',
  '\t\t<vlc:item tid="0"/>',
  '\t\t<vlc:item tid="1"/>',
  '\t</extension>',
  '</playlist>',
  '',
].join('\n');
