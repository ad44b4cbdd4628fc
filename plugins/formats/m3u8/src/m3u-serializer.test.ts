import { FORMAT_OPERATIONS, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

/** Through bytes, as the host writes the file: a lone surrogate cannot survive UTF-8 unless escaped. */
async function roundTrip(playlists: PlaylistInput[]) {
  const { text } = await runSerialize(plugin, playlists);
  const bytes = new TextEncoder().encode(text);
  return { text, bytes, parsed: await runParse(plugin, bytes, { filename: 'list.m3u8', mediaType: 'audio/x-mpegurl' }) };
}

describe('M3U8 serializer: values a text line cannot hold raw', () => {
  it('writes no C0 control character and reads NUL, control characters and lone surrogates back exactly', async () => {
    const playlists: PlaylistInput[] = [
      {
        id: 'p\u0000',
        name: 'Mix\u0000 \u0001one',
        description: 'bell\u0007 and \\u0041 literally, lone \uD800 high',
        tracks: [
          { title: 'Ti\u0002tle', artist: 'Art\u001Fist', album: 'Alb\u0008um', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } },
          { title: 'lone \uDC00 low', artist: 'back\\\u0003slash', provider_uris: {} },
        ],
      },
    ];
    const { bytes, parsed } = await roundTrip(playlists);
    // Tab, LF and nothing else below U+0020.
    expect([...bytes].filter((byte) => byte < 0x20 && byte !== 0x09 && byte !== 0x0a)).toEqual([]);
    expect(parsed.issues).toEqual([]);
    const expected = FORMAT_OPERATIONS.serialize.input.parse({ playlists }).playlists;
    expect(parsed.playlists.map((playlist) => [playlist.id, playlist.name, playlist.description])).toEqual(expected.map((playlist) => [playlist.id, playlist.name, playlist.description]));
    expect(parsed.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album])).toEqual(expected[0]!.tracks.map((track) => [track.title, track.artist, track.album]));
    expect(parsed.playlists[0]!.tracks[0]!.provider_uris).toEqual({ spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' });
  });

  it('shows a space in #PLAYLIST and #EXTINF and keeps the exact value in #OPL-* comments', async () => {
    const { text } = await roundTrip([{ name: 'A\u0000B', tracks: [{ title: 'T\u0001', artist: 'X' }] }]);
    expect(text).toContain('#PLAYLIST:A B\n#OPL-PLAYLIST-NAME:A\\u0000B\n');
    expect(text).toContain('#EXTINF:-1,X - T \n#OPL-TITLE:T\\u0001\n');
  });
});
