import { describe, expect, it } from 'vitest';
import { parseExportOptions } from '../../../core/cli/export/export-options.ts';
import { parseMigrateOptions, UsageError } from '../../../core/cli/migrate/migrate-options.ts';

/**
 * The command lines of `opl export` and `opl migrate`: a `--tracks` playlist id is any text (an
 * imported bundle's playlist may be called `constructor`), and `--url` is an http(s) address.
 */

const ACCOUNT = '00000000-0000-4000-8000-000000000000';

describe('--tracks keys named like JavaScript object members', () => {
  it('opl export keeps them as playlist ids, in the JSON it sends', () => {
    const options = parseExportOptions(['--source', `spotify:${ACCOUNT}`, '--format', 'csv', '--tracks', 'constructor=a,b', '--tracks', '__proto__=c', '--tracks', 'constructor=d']);
    expect(options.mode).toBe('live');
    if (options.mode !== 'live') return;
    expect(JSON.parse(JSON.stringify(options.tracks))).toEqual({ constructor: ['a', 'b', 'd'], ['__proto__']: ['c'] });
    expect(Object.keys(options.tracks)).toEqual(['constructor', '__proto__']);
  });

  it('opl migrate keeps them as collection ids', () => {
    const options = parseMigrateOptions(['--from', `import:${ACCOUNT}`, '--to', ACCOUNT, '--tracks', 'constructor=pos:0', '--tracks', 'toString=pos:1,pos:2']);
    expect(options).toMatchObject({ mode: 'start' });
    if (!('selection' in options)) return;
    expect(JSON.parse(JSON.stringify(options.selection.tracks))).toEqual({ constructor: ['pos:0'], toString: ['pos:1', 'pos:2'] });
  });
});

describe('--url of opl migrate', () => {
  it('is an http(s) address, else a usage error naming it', () => {
    for (const url of ['notaurl', 'ftp://engine.example', 'localhost:8765']) {
      expect(() => parseMigrateOptions(['--list', '--url', url]), url).toThrow(UsageError);
      expect(() => parseMigrateOptions(['--list', '--url', url]), url).toThrow(`--url takes the engine's http:// or https:// address (e.g. http://127.0.0.1:8765); not ${JSON.stringify(url)}.`);
    }
    expect(parseMigrateOptions(['--list', '--url', 'https://engine.example:8443/'])).toMatchObject({ mode: 'list', url: 'https://engine.example:8443/' });
  });
});
