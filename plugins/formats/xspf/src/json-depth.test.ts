import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { MAX_JSON_DEPTH, textNestsDeeper, valueNestsDeeper } from './json-depth.ts';

const OPL = 'https://open-playlist.org/ns/xspf/1';
/** `{"a":{"a":…1…}}`, `levels` objects inside one another (the outer one is level 1). */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('JSON nesting depth', () => {
  it('counts the outer object as level 1, in text and in parsed values alike, ignoring brackets in strings', () => {
    for (const levels of [1, 2, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      expect(textNestsDeeper(nested(levels))).toBe(levels > MAX_JSON_DEPTH);
      expect(valueNestsDeeper(JSON.parse(nested(levels)))).toBe(levels > MAX_JSON_DEPTH);
    }
    expect(textNestsDeeper('{"a":"[[[[\\"[[["}', 1)).toBe(false);
    expect(textNestsDeeper('[{}]', 1)).toBe(true);
    expect(valueNestsDeeper([{}], 1)).toBe(true);
    expect(valueNestsDeeper('[[[[', 0)).toBe(false);
  });
});

describe('metadata nested 20,000 deep (about 120 KB) is left out, with an issue for its track; neighbours stay', () => {
  const deep = nested(20_000);
  const expectDeepDropped = (result: Awaited<ReturnType<typeof runParse>>, line: number | null, trackLine: number | null) => {
    const [playlist] = result.playlists;
    expect(playlist!.tracks.map((track) => track.title)).toEqual(['Before', 'Deep', 'After']);
    expect(playlist!.tracks[1]!.metadata).toEqual({});
    expect(playlist!.tracks[1]!.provider_metadata).toEqual({});
    expect(playlist!.tracks[1]!.isrc).toBe('USAAA0000001');
    expect(playlist!.tracks[0]!.metadata).toEqual({ kept: [1, { two: 2 }] });
    expect(playlist!.tracks[2]!.metadata).toEqual({ ok: true });
    expect(playlist!.metadata).toEqual({});
    expect(result.issues.map(({ code, line: at, severity, message }) => ({ code, line: at, severity, field: /extension field (\w+)/.exec(message)?.[1] }))).toEqual([
      // Tracks come before the playlist's extension, as always (source-playlist.ts).
      ...['metadata', 'provider_metadata'].map((field) => ({ code: 'too_deeply_nested', line: trackLine, severity: 'warning', field })),
      { code: 'too_deeply_nested', line, severity: 'warning', field: 'metadata' },
    ]);
    expect(result.issues[0]!.message).toMatch(/more than 64 levels deep.*left empty/);
    // What broke before: the host stores the result as JSON.
    expect(() => JSON.stringify(result)).not.toThrow();
  };

  it('in XSPF (the text is not parsed at all)', async () => {
    const extension = (fields: string) => `<extension application="${OPL}">${fields}</extension>`;
    const xml = [
      `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${OPL}">${extension(`<opl:metadata>${deep}</opl:metadata>`)}<trackList>`,
      `<track><title>Before</title>${extension('<opl:metadata>{"kept":[1,{"two":2}]}</opl:metadata>')}</track>`,
      `<track><title>Deep</title>${extension(`<opl:isrc>USAAA0000001</opl:isrc><opl:metadata>${deep}</opl:metadata><opl:provider_metadata>{"x":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}</opl:provider_metadata>`)}</track>`,
      `<track><title>After</title>${extension('<opl:metadata>{"ok":true}</opl:metadata>')}</track>`,
      '</trackList></playlist>',
    ].join('\n');
    expectDeepDropped(await runParse(plugin, xml, { filename: 'deep.xspf' }), 1, 3);
  });

  it('in JSPF', async () => {
    const ours = (fields: string) => `"extension":{"${OPL}":[{${fields}}]}`;
    const jspf = `{"playlist":{"title":"P",${ours(`"metadata":${deep}`)},"track":[
      {"title":"Before",${ours('"metadata":{"kept":[1,{"two":2}]}')}},
      {"title":"Deep",${ours(`"isrc":"USAAA0000001","metadata":${deep},"provider_metadata":{"x":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`)}},
      {"title":"After",${ours('"metadata":{"ok":true}')}}]}}`;
    expectDeepDropped(await runParse(plugin, jspf, { filename: 'deep.jspf' }), null, null);
  });

  it('keeps metadata exactly 64 levels deep', async () => {
    const jspf = JSON.stringify({ playlist: { track: [{ title: 'T', extension: { [OPL]: [{ metadata: JSON.parse(nested(MAX_JSON_DEPTH)) as unknown }] } }] } });
    const result = await runParse(plugin, jspf, { filename: 'x.jspf' });
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]!.tracks[0]!.metadata).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
  });
});
