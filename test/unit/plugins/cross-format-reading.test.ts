import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatPluginDefinition, Manifest } from '@opl/plugin-sdk';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { chooseReader } from '../../../core/services/imports/reader-choice.ts';
import csv from '../../../plugins/formats/csv/src/index.ts';
import json from '../../../plugins/formats/json/src/index.ts';
import m3u8 from '../../../plugins/formats/m3u8/src/index.ts';
import pls from '../../../plugins/formats/pls/src/index.ts';
import txt from '../../../plugins/formats/txt/src/index.ts';
import wpl from '../../../plugins/formats/wpl/src/index.ts';
import xml from '../../../plugins/formats/xml/src/index.ts';
import xspf from '../../../plugins/formats/xspf/src/index.ts';

/**
 * One playlist, every format, one result: the same three tracks written by hand in each input
 * format (test/fixtures/formats/one-playlist/) read to the same titles, artists, albums,
 * durations, ISRCs, provider URIs and local-file flags. The reader is the one an upload gets
 * (`chooseReader` over the first-party manifests, by content then name). A format that has no
 * place for a field (M3U, PLS and WPL hold no ISRC, PLS no album) is compared on
 * the others, and must leave that field empty rather than invent one.
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/formats/one-playlist/', import.meta.url));
const FORMATS = fileURLToPath(new URL('../../../plugins/formats/', import.meta.url));
const PLUGINS: Readonly<Record<string, FormatPluginDefinition>> = { csv, json, m3u8, pls, txt, wpl, xml, xspf };
const MANIFEST_DIRS = ['csv', 'itunes-library', 'json', 'm3u8', 'pls', 'txt', 'wpl', 'xml', 'xspf'];

const EXPECTED = [
  { title: 'Harbour Lights', artist: 'The Quiet Tide', album: 'Lights', duration_s: 239, isrc: 'GBAAN9700044', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, is_local: false },
  { title: 'Ünder Glass', artist: 'Mara Voss', album: 'Glass', duration_s: 225, isrc: null, provider_uris: {}, is_local: true },
  { title: '花束を君に', artist: '宇多田ヒカル', album: 'Fantôme', duration_s: 281, isrc: 'JPB601600411', provider_uris: { tidal: 'tidal:track:62592000' }, is_local: false },
];
type Field = keyof (typeof EXPECTED)[number];

/** Each file, the reader it must get, and the fields its format cannot carry. */
const FILES: ReadonlyArray<readonly [string, string, readonly Field[]]> = [
  ['road-trip.txt', 'txt', []],
  ['road-trip.csv', 'csv', []],
  ['road-trip.m3u', 'm3u8', ['isrc']],
  ['road-trip.m3u8', 'm3u8', ['isrc']],
  ['road-trip.pls', 'pls', ['album', 'isrc']],
  ['road-trip.wpl', 'wpl', ['isrc']],
  ['road-trip.xspf', 'xspf', []],
  ['road-trip.xml', 'xml', []],
  ['road-trip.json', 'json', []],
];

async function manifests(): Promise<Manifest[]> {
  return Promise.all(MANIFEST_DIRS.map(async (name) => JSON.parse(await readFile(join(FORMATS, name, 'plugin.json'), 'utf8')) as Manifest));
}

describe('one playlist, every format, one result', () => {
  it.each(FILES)('%s reads to the same tracks', async (file, format, missing) => {
    const bytes = new Uint8Array(await readFile(join(FIXTURES, file)));
    const choice = chooseReader(await manifests(), { fileName: file, mediaType: null, head: bytes });
    expect(choice.reader?.name).toBe(format);
    const parsed = await runParse(PLUGINS[format]!, bytes, { filename: file });
    expect(parsed.playlists).toHaveLength(1);
    const tracks = parsed.playlists[0]!.tracks;
    const fields = Object.keys(EXPECTED[0]!) as Field[];
    const read = tracks.map((track) => Object.fromEntries(fields.map((field) => [field, missing.includes(field) ? null : track[field]])));
    const expected = EXPECTED.map((track) => Object.fromEntries(fields.map((field) => [field, missing.includes(field) ? null : track[field]])));
    expect(read).toEqual(expected);
    // A field the format cannot carry stays empty.
    for (const field of missing) expect(tracks.map((track) => track[field] ?? null)).toEqual([null, null, null]);
    // The local file is a local file everywhere: not migrated, with the path it names.
    expect(tracks[1]).toMatchObject({ media_type: 'local_file', is_migratable: false, metadata: { local_path: '/home/lea/Music/Mara Voss - Under Glass.flac' } });
    expect(parsed.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });
});
