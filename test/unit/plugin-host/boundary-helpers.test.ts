import { describe, expect, it } from 'vitest';
import { parseBoundaryJson } from '../../../plugin-sdk/src/sandbox/boundary-json.ts';
import { MAX_LOGS_PER_CALL, pluginLogEntry } from '../../../plugin-sdk/src/sandbox/plugin-log.ts';
import { createRedactor, REDACTED, secretsOf } from '../../../plugin-sdk/src/sandbox/redactor.ts';
import { decodeText, encodeText, TextCodecError } from '../../../plugin-sdk/src/sandbox/text-codec.ts';
import { errorDataFromThrown, MAX_ERROR_MESSAGE } from '../../../plugin-sdk/src/sandbox/thrown-error.ts';

describe('redactor', () => {
  const secrets = secretsOf([{ headers: { authorization: 'Bearer tok-abcdef123456', 'x-api-key': 'k' }, token: 'tok-abcdef123456' }]);
  const redactor = createRedactor(secrets);

  it('collects whole header values and the long parts of them', () => {
    expect(secrets).toContain('Bearer tok-abcdef123456');
    expect(secrets).toContain('tok-abcdef123456');
    // A one-character value is still masked as a whole, but not hunted for as a part of others.
    expect(secrets).toContain('k');
    expect(secrets).not.toContain('Bearer');
  });

  it('masks every occurrence in text and in bytes', () => {
    expect(redactor.text('a tok-abcdef123456 b tok-abcdef123456')).toBe(`a ${REDACTED} b ${REDACTED}`);
    const bytes = new TextEncoder().encode('{"auth":"Bearer tok-abcdef123456"}');
    expect(new TextDecoder().decode(redactor.bytes(bytes))).toBe(`{"auth":"${REDACTED}"}`);
    expect(redactor.text('nothing here')).toBe('nothing here');
  });

  it('is inactive without credentials', () => {
    const none = createRedactor(secretsOf([]));
    expect(none.active).toBe(false);
    expect(none.text('tok-abcdef123456')).toBe('tok-abcdef123456');
  });
});

describe('parseBoundaryJson', () => {
  it('drops __proto__ keys however they are spelled', () => {
    const plain = parseBoundaryJson('{"a":{"__proto__":{"polluted":1},"b":2}}') as { a: Record<string, unknown> };
    expect(Object.hasOwn(plain.a, '__proto__')).toBe(false);
    expect(plain.a.b).toBe(2);
    const escaped = parseBoundaryJson('{"\\u005f_proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.hasOwn(escaped, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses ordinary JSON unchanged', () => {
    expect(parseBoundaryJson('{"x":[1,"two",null]}')).toEqual({ x: [1, 'two', null] });
    // Escapes of storable text stay what they spell.
    expect(parseBoundaryJson('{"t":"tab\\tand \\u0001 and \\ud83d\\ude00 and \\\\u0000"}')).toEqual({ t: 'tab\tand \u0001 and 😀 and \\u0000' });
  });

  it('replaces text PostgreSQL cannot store (NUL, unpaired surrogates) with U+FFFD, in values and keys', () => {
    // What JSON.stringify in a sandbox writes for such strings.
    const text = JSON.stringify({ title: 'a\u0000b', tracks: [{ artist: 'x\ud800y', album: 'z\udc00' }], metadata: { 'k\u0000': 'v', 'ok': '\ud83d' }, fine: '東京 😀' });
    expect(text).toContain('\\u0000');
    expect(parseBoundaryJson(text)).toEqual({ title: 'a\ufffdb', tracks: [{ artist: 'x\ufffdy', album: 'z\ufffd' }], metadata: { 'k\ufffd': 'v', ok: '\ufffd' }, fine: '東京 😀' });
    expect(Object.keys((parseBoundaryJson(text) as { metadata: object }).metadata)).toEqual(['k\ufffd', 'ok']);
  });
});

describe('errorDataFromThrown', () => {
  const identity = (text: string) => text;

  it('keeps the type of known typed errors', () => {
    expect(errorDataFromThrown({ is_error: true, type: 'NotFound', name: 'NotFound', message: 'no playlist 7' }, identity)).toEqual({ type: 'NotFound', message: 'no playlist 7' });
    expect(errorDataFromThrown({ is_error: true, type: 'RateLimited', message: 'slow down', retry_after_s: 12 }, identity)).toEqual({ type: 'RateLimited', message: 'slow down', retry_after_s: 12 });
    expect(errorDataFromThrown({ is_error: true, type: 'RateLimited', message: 'x', retry_after_s: -5 }, identity).retry_after_s).toBeNull();
  });

  it('turns everything else into a ProviderError', () => {
    expect(errorDataFromThrown({ is_error: true, type: 'Root', name: 'TypeError', message: 'boom' }, identity)).toEqual({ type: 'ProviderError', message: 'the plugin failed: TypeError: boom' });
    // A plain object is not an Error, even with a typed-looking shape.
    expect(errorDataFromThrown({ is_error: false, type: 'AuthExpired', message: 'forged' }, identity).type).toBe('ProviderError');
    expect(errorDataFromThrown({ thrown: 'number' }, identity)).toEqual({ type: 'ProviderError', message: 'the plugin failed by throwing a non-error value (number)' });
    expect(errorDataFromThrown(null, identity).type).toBe('ProviderError');
    expect(errorDataFromThrown({ is_error: true, name: 'Bad Name<script>', message: 'm' }, identity).message).toBe('the plugin failed: Error: m');
  });

  it('bounds and redacts messages', () => {
    const long = errorDataFromThrown({ is_error: true, type: 'NotFound', message: 'x'.repeat(5_000) }, identity);
    expect(long.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
    const redacted = errorDataFromThrown({ is_error: true, type: 'NotFound', message: 'secret-value' }, (text) => text.replace('secret-value', REDACTED));
    expect(redacted.message).toBe(REDACTED);
  });
});

describe('text codec', () => {
  it('decodes allowed encodings and refuses others', () => {
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'windows-1252')).toBe('café');
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'latin1')).toBe('café');
    expect(decodeText(encodeText('héllo'))).toBe('héllo');
    expect(() => decodeText(new Uint8Array(1), 'x-user-defined')).toThrow(TextCodecError);
    expect(() => decodeText(new Uint8Array(1), 'no-such-encoding')).toThrow(TextCodecError);
    expect(() => decodeText('not bytes', 'utf-8')).toThrow(TextCodecError);
    expect(() => encodeText(42)).toThrow(TextCodecError);
  });
});

describe('pluginLogEntry', () => {
  const redactor = createRedactor(['tok-abcdef123456']);
  const where = { pluginId: 'test.plugin', op: 'listPlaylists' };

  it('redacts message, data keys and values, and drops __proto__', () => {
    const entry = pluginLogEntry(
      { level: 'info', message: 'token tok-abcdef123456', data: JSON.stringify({ nested: { auth: 'tok-abcdef123456' }, 'tok-abcdef123456': 1 }) },
      { count: 0 },
      redactor,
      where,
    );
    expect(JSON.stringify(entry)).not.toContain('tok-abcdef123456');
    expect(entry?.message).toBe(`token ${REDACTED}`);
  });

  it('bounds entries per call, messages and data', () => {
    const budget = { count: 0 };
    const entries = Array.from({ length: MAX_LOGS_PER_CALL + 10 }, () => pluginLogEntry({ level: 'debug', message: 'm', data: null }, budget, redactor, where));
    expect(entries.filter(Boolean)).toHaveLength(MAX_LOGS_PER_CALL + 1);
    expect(entries[MAX_LOGS_PER_CALL]?.source).toBe('sandbox');
    const long = pluginLogEntry({ level: 'info', message: 'x'.repeat(10_000), data: JSON.stringify({ blob: 'y'.repeat(20_000) }) }, { count: 0 }, redactor, where);
    expect(long?.message.length).toBeLessThanOrEqual(2_000);
    expect(long?.data).toEqual({ truncated: true });
    expect(pluginLogEntry({ level: 'fatal', message: 'm', data: null }, { count: 0 }, redactor, where)).toBeNull();
  });
});
