import { describe, expect, it } from 'vitest';
import { defineFormatPlugin, type FormatContext } from '../index.ts';
import { formatTestContext, runParse, runSerialize, TEST_NOW } from './index.ts';

const echo = defineFormatPlugin({
  parse: (input, ctx) => ({ playlists: [{ name: `${input.filename ?? '-'} ${input.media_type ?? '-'} ${ctx.decodeText(input.bytes)} ${ctx.now()}`, tracks: [] }], issues: [] }),
  *serialize(input, ctx) {
    ctx.log.info('serializing', { count: input.playlists.length });
    yield 'a';
    yield ctx.encodeText('é');
    yield input.playlists.map((playlist) => playlist.name).join(',');
  },
});

describe('@opl/plugin-sdk/testing', () => {
  it('parses text or bytes with validated, defaulted results', async () => {
    const result = await runParse(echo, 'hi', { filename: 'x.txt', mediaType: 'text/plain' });
    expect(result.playlists[0]).toMatchObject({ name: `x.txt text/plain hi ${TEST_NOW}`, kind: 'PLAYLIST' });
    expect((await runParse(echo, new Uint8Array([0x6f, 0x6b]))).playlists[0]?.name).toBe(`- - ok ${TEST_NOW}`);
  });

  it('collects string and byte chunks and records the log', async () => {
    const context = formatTestContext({ now: '2000-01-01T00:00:00Z' });
    expect(await runSerialize(echo, [{ name: 'P' }, { name: 'Q' }], {}, { context })).toEqual({ text: 'aéP,Q', chunks: ['a', 'é', 'P,Q'] });
    expect(context.logged).toEqual([{ level: 'info', message: 'serializing', data: { count: 2 } }]);
    expect(context.now()).toBe('2000-01-01T00:00:00Z');
    await expect(context.fetch('https://example.org/')).rejects.toThrow(/no network/);
  });

  it('refuses chunks over 64 KiB, invalid input and missing operations', async () => {
    const big = defineFormatPlugin({ serialize: () => ['x'.repeat(64 * 1024), 'é'.repeat(32 * 1024 + 1)] });
    await expect(runSerialize(big, [])).rejects.toThrow(/chunk 1 of 65538 bytes, more than the 65536-byte limit/);
    expect((await runSerialize(big, [], {}, { maxChunkBytes: Infinity })).chunks).toHaveLength(2);
    await expect(runSerialize(echo, [{ name: 1 } as never])).rejects.toThrow();
    await expect(runParse(big, '')).rejects.toThrow('the plugin has no parse');
    await expect(runSerialize(defineFormatPlugin({}), [])).rejects.toThrow('the plugin has no serialize');
  });

  it('decodes like the host: only the encodings it allows', () => {
    const ctx: FormatContext = formatTestContext();
    expect(ctx.decodeText(new Uint8Array([0xe9]), 'windows-1252')).toBe('é');
    expect(() => ctx.decodeText(new Uint8Array([0x41]), 'ibm866')).toThrow(/not supported/);
  });
});
