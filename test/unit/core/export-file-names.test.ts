import { describe, expect, it } from 'vitest';
import { exportFileNames, isWindowsReservedName, safeBaseName } from '../../../core/domain/export-file-names.ts';
import { unicodeName } from '../../../core/services/exports/export.service.ts';

describe('export file names', () => {
  it('keeps names ASCII-safe', () => {
    expect(safeBaseName('Café del Mar: Chill ✨ Mix')).toBe('Cafe del Mar_ Chill _ Mix');
    expect(safeBaseName('東京 Nights')).toBe('Nights');
    expect(safeBaseName('Ünïcødé: <one>|"two"?*')).toBe('Unic_de_ _one_two_');
  });

  it('removes path separators and traversal segments', () => {
    expect(safeBaseName('../../etc/passwd')).toBe('etc passwd');
    expect(safeBaseName('a\\..\\b')).toBe('a . b');
    expect(safeBaseName('..')).toBe('');
    expect(safeBaseName('.hidden')).toBe('hidden');
  });

  it('prefixes Windows reserved device names and strips trailing dots and spaces', () => {
    expect(safeBaseName('CON')).toBe('_CON');
    expect(safeBaseName('lpt1.txt')).toBe('_lpt1.txt');
    expect(safeBaseName('Console')).toBe('Console');
    expect(safeBaseName('Road trip. . ')).toBe('Road trip');
  });

  it('prefixes device names followed by spaces before an extension or a stream, as Windows cuts them', () => {
    for (const name of ['CON .txt', 'lpt1 .m3u', 'nul   .tar.gz', 'Aux :stream', 'COM0', 'lpt0.txt']) expect(isWindowsReservedName(name), name).toBe(true);
    for (const name of ['CON x.txt', 'CONSOLE', 'com10', 'xCON']) expect(isWindowsReservedName(name), name).toBe(false);
    expect(safeBaseName('CON .txt')).toBe('_CON .txt');
    expect(safeBaseName('lpt1 .m3u')).toBe('_lpt1 .m3u');
    expect(safeBaseName('COM0')).toBe('_COM0');
    expect(safeBaseName('CON x.txt')).toBe('CON x.txt');
    expect(unicodeName('CON .txt', 'fallback')).toBe('_CON .txt');
    expect(unicodeName('lpt1 .m3u', 'fallback')).toBe('_lpt1 .m3u');
  });

  it('treats CONIN$ and CONOUT$ as devices, with the same prefix in the ASCII name and in filename*', () => {
    expect(isWindowsReservedName('CONIN$')).toBe(true);
    expect(isWindowsReservedName('conout$.txt')).toBe(true);
    // The ASCII name has no `$`, so it is harmless by itself; it still agrees with filename*.
    expect(safeBaseName('conin$')).toBe('_conin_');
    expect(unicodeName('conin$', 'fallback')).toBe('_conin$');
    expect(safeBaseName('CONOUT$ .csv')).toBe('_CONOUT_ .csv');
    expect(unicodeName('CONOUT$ .csv', 'fallback')).toBe('_CONOUT$ .csv');
    // Likewise a name that becomes one in ASCII only.
    expect(safeBaseName('ＣＯＮ')).toBe('_CON');
    expect(unicodeName('ＣＯＮ', 'fallback')).toBe('_ＣＯＮ');
    expect(safeBaseName('conin$ mix')).toBe('conin_ mix');
  });

  it('falls back to the playlist id, then to the position, when the name is empty', () => {
    expect(exportFileNames([{ id: 'pl-42', name: '✨✨' }, { id: null, name: '' }, { id: '../', name: '..' }], '.csv')).toEqual(['pl-42.csv', 'playlist-2.csv', 'playlist-3.csv']);
  });

  it('suffixes case-insensitive collisions deterministically', () => {
    const names = exportFileNames(
      [
        { id: '1', name: 'Mix' },
        { id: '2', name: 'mix' },
        { id: '3', name: 'MIX' },
        { id: '4', name: 'Mix-2' },
      ],
      '.m3u8',
    );
    expect(names).toEqual(['Mix.m3u8', 'mix-2.m3u8', 'MIX-3.m3u8', 'Mix-2-2.m3u8']);
  });
});
