import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const encoder = new TextEncoder();
const parseText = (text: string) => runParse(plugin, encoder.encode(text), { filename: 'Library.xml', mediaType: 'application/xml' });

const DOCTYPE = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">';
const trackDict = (id: number, fields: string) => `<key>${id}</key><dict><key>Track ID</key><integer>${id}</integer>${fields}</dict>`;
const items = (ids: readonly number[]) => `<key>Playlist Items</key><array>${ids.map((id) => `<dict><key>Track ID</key><integer>${id}</integer></dict>`).join('')}</array>`;
const library = (tracks: string, playlists: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${DOCTYPE}\n<plist version="1.0"><dict><key>Major Version</key><integer>1</integer><key>Tracks</key><dict>${tracks}</dict><key>Playlists</key><array>${playlists}</array></dict></plist>`;

const TRACKS = [
  trackDict(1, '<key>Name</key><string>Harbour Lights</string><key>Artist</key><string>The Quiet Tide</string><key>Album Artist</key><string>Tide</string><key>Album</key><string>Lights</string><key>Total Time</key><integer>215500</integer><key>Year</key><integer>2019</integer><key>Track Number</key><integer>3</integer><key>Persistent ID</key><string>ABCDEF0123456789</string><key>Track Type</key><string>File</string><key>Location</key><string>file:///Users/lea/Music/01%20Harbour%20Lights.mp3</string>'),
  trackDict(2, '<key>Name</key><string>Ünder Glass</string><key>Artist</key><string>Mara Voss</string><key>Explicit</key><true/>'),
  trackDict(3, '<key>Name</key><string>Ep. 1</string><key>Podcast</key><true/>'),
  trackDict(4, '<key>Name</key><string>Film</string><key>Movie</key><true/>'),
  trackDict(5, '<key>Name</key><string>Clip</string><key>Music Video</key><true/>'),
  trackDict(6, '<key>Name</key><string>Radio</string><key>Track Type</key><string>URL</string><key>Location</key><string>http://radio.example/stream</string>'),
  trackDict(7, '<key>Track Type</key><string>File</string><key>Location</key><string>file://localhost/C:/Music/Nameless%20Song.m4a</string>'),
].join('');

describe('iTunes / Apple Music Library.xml', () => {
  it('has no serializer', () => {
    expect(plugin.operations.serialize).toBeUndefined();
  });

  it('reads user playlists in order with duplicates and Unicode, song metadata, and locations as data', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Name</key><string>Mix ✓</string><key>Playlist ID</key><integer>9</integer>${items([2, 1, 2, 7])}</dict>`));
    expect(result.issues).toEqual([]);
    const [playlist] = result.playlists;
    expect(playlist).toMatchObject({ name: 'Mix ✓', metadata: { itunes_playlist_id: 9 } });
    expect(playlist!.tracks.map((track) => [track.position, track.title, track.artist])).toEqual([
      [0, 'Ünder Glass', 'Mara Voss'],
      [1, 'Harbour Lights', 'The Quiet Tide'],
      [2, 'Ünder Glass', 'Mara Voss'],
      [3, 'Nameless Song', ''],
    ]);
    expect(playlist!.tracks[1]).toMatchObject({
      album: 'Lights',
      duration_s: 215.5,
      release_year: 2019,
      track_number: 3,
      media_type: 'track',
      is_local: false,
      is_migratable: true,
      metadata: { album_artist: 'Tide', itunes_persistent_id: 'ABCDEF0123456789', itunes_track_id: 1, location: 'file:///Users/lea/Music/01%20Harbour%20Lights.mp3', local_path: '/Users/lea/Music/01 Harbour Lights.mp3' },
    });
    expect(playlist!.tracks[0]).toMatchObject({ explicit: true });
    expect(playlist!.tracks[3]!.metadata.local_path).toBe('C:/Music/Nameless Song.m4a');
    // Each entry is its own object: positions do not leak between duplicates.
    expect(playlist!.tracks[0]).not.toBe(playlist!.tracks[2]);
  });

  it('marks podcasts, movies, music videos and streams unsupported with their media type', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Name</key><string>Mixed</string>${items([3, 4, 5, 6])}</dict>`));
    expect(result.playlists[0]!.tracks.map((track) => [track.media_type, track.is_migratable, track.unsupported_reason?.split(':')[0]])).toEqual([
      ['episode', false, 'podcast episode'],
      ['video', false, 'movie'],
      ['video', false, 'music video'],
      ['unknown', false, 'internet stream'],
    ]);
  });

  it('skips the master list, built-in lists and folders with warnings; nested folders give a path; missing tracks are item errors', async () => {
    const playlists = [
      `<dict><key>Master</key><true/><key>Name</key><string>Library</string>${items([1, 2])}</dict>`,
      `<dict><key>Distinguished Kind</key><integer>10</integer><key>Name</key><string>Podcasts</string>${items([3])}</dict>`,
      '<dict><key>Folder</key><true/><key>Name</key><string>Outer</string><key>Playlist Persistent ID</key><string>F1</string></dict>',
      '<dict><key>Folder</key><true/><key>Name</key><string>Inner</string><key>Playlist Persistent ID</key><string>F2</string><key>Parent Persistent ID</key><string>F1</string></dict>',
      `<dict><key>Name</key><string>Deep</string><key>Parent Persistent ID</key><string>F2</string><key>Smart Info</key><data>AQE=</data>${items([1, 404, 2])}</dict>`,
      '<dict><key>Name</key><string>Empty</string></dict>',
      `<dict><key>Name</key><string>Odd</string><key>Playlist Items</key><array><dict><key>Other</key><string>x</string></dict></array></dict>`,
    ].join('');
    const result = await parseText(library(TRACKS, playlists));
    expect(result.playlists.map((playlist) => [playlist.name, playlist.metadata, playlist.tracks.map((track) => track.title)])).toEqual([
      ['Deep', { folder: 'Outer / Inner', smart: true }, ['Harbour Lights', 'Ünder Glass']],
      ['Empty', {}, []],
      ['Odd', {}, []],
    ]);
    expect(result.issues.map((issue) => [issue.code, issue.severity])).toEqual([
      ['library_list_skipped', 'warning'],
      ['system_playlist_skipped', 'warning'],
      ['folder_skipped', 'warning'],
      ['folder_skipped', 'warning'],
      ['missing_track', 'error'],
      ['invalid_item', 'error'],
    ]);
    expect(result.issues[4]!.message).toContain('Track ID 404');
    expect(await parseText(library(TRACKS, playlists))).toEqual(result);
  });

  it('reports a library without playlists of its own', async () => {
    const result = await parseText(library(TRACKS, `<dict><key>Master</key><true/><key>Name</key><string>Library</string>${items([1])}</dict>`));
    expect(result.playlists).toEqual([]);
    expect(result.issues.at(-1)).toMatchObject({ code: 'no_playlists', severity: 'error' });
  });

  it('reads at most 10,000 playlists, with an error, instead of a result the host would refuse', async () => {
    const playlists = Array.from({ length: 10_002 }, (_, index) => `<dict><key>Name</key><string>List ${index}</string>${items([1])}</dict>`).join('');
    const result = await parseText(library(trackDict(1, '<key>Name</key><string>Only</string>'), playlists));
    expect(result.playlists).toHaveLength(10_000);
    expect(result.playlists.at(-1)).toMatchObject({ name: 'List 9999', tracks: [{ title: 'Only' }] });
    expect(result.issues).toEqual([expect.objectContaining({ code: 'too_many_playlists', severity: 'error' })]);
  });

  it('keeps a provider-style location too long for provider_uris as metadata only', async () => {
    const location = `deezer:track:${'7'.repeat(2_000)}`;
    const result = await parseText(library(trackDict(1, `<key>Name</key><string>Long</string><key>Location</key><string>${location}</string>`), `<dict><key>Name</key><string>P</string>${items([1])}</dict>`));
    expect(result.playlists[0]?.tracks[0]).toMatchObject({ title: 'Long', provider_uris: {}, metadata: { location } });
  });

  it('accepts only the Apple plist DOCTYPE: internal subsets, entities, other DOCTYPEs and other documents are refused', async () => {
    const body = '<plist version="1.0"><dict><key>Tracks</key><dict/></dict></plist>';
    await expect(parseText(`${DOCTYPE.slice(0, -1)} [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]>${body.replace('<dict/>', '<dict><key>&b;</key><dict/></dict>')}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`<!DOCTYPE plist SYSTEM "file:///etc/passwd">${body}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`<!DOCTYPE html>${body}`)).rejects.toThrow(/DOCTYPE other than/);
    await expect(parseText(`${DOCTYPE}<plist><string>&nbsp;</string></plist>`)).rejects.toThrow(/undefined entity/);
    await expect(parseText('<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).rejects.toThrow(/not <plist>/);
    await expect(parseText(`${DOCTYPE}<plist version="1.0"><dict><key>Other</key><string>x</string></dict></plist>`)).rejects.toThrow(/neither "Tracks" nor "Playlists"/);
    await expect(parseText(`${DOCTYPE}<plist version="1.0"><dict><string>x</string><string>y</string></dict></plist>`)).rejects.toThrow(/instead of <key>/);
  });
});
