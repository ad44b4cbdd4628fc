import { describe, expect, it } from 'vitest';
import { exportFileNames, safeBaseName } from '../../../core/domain/export-file-names.ts';

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
