import { describe, expect, it } from 'vitest';
import { CanonicalJsonError, canonicalJson, canonicalJsonBytes } from '../../../plugin-sdk/src/canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys recursively and drops all whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it('gives the same text for the same data whatever the key order', () => {
    const one = { id: 'x', files: { 'b.js': '2', 'a.js': '1' }, n: 1.5 };
    const two = { n: 1.5, files: { 'a.js': '1', 'b.js': '2' }, id: 'x' };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it('keeps array order, which is meaningful', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('sorts by UTF-16 code unit, not by locale', () => {
    expect(canonicalJson({ b: 0, B: 0, é: 0, a: 0 })).toBe('{"B":0,"a":0,"b":0,"é":0}');
  });

  it('escapes strings exactly like JSON.stringify and encodes UTF-8', () => {
    const text = 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🎵 lone \ud800';
    expect(canonicalJson({ text })).toBe(`{"text":${JSON.stringify(text)}}`);
    expect(new TextDecoder().decode(canonicalJsonBytes({ k: 'ü' }))).toBe('{"k":"ü"}');
    expect(canonicalJsonBytes({ k: 'ü' })).toHaveLength(10);
  });

  it('writes numbers as JSON does (no -0, exponent form for large values)', () => {
    expect(canonicalJson([-0, 1e21, 0.1, 5])).toBe('[0,1e+21,0.1,5]');
  });

  it('leaves out undefined properties, like JSON', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it.each([
    ['NaN', { n: Number.NaN }, /\$\.n is NaN/],
    ['Infinity', [Number.POSITIVE_INFINITY], /\$\[0\] is Infinity/],
    ['undefined in an array', [1, undefined], /\$\[1\] is undefined/],
    ['a bigint', { n: 1n }, /bigint/],
    ['a function', { f: () => 1 }, /function/],
    ['a Date', { at: new Date(0) }, /Date object/],
    ['a Map', new Map(), /Map object/],
    ['top-level undefined', undefined, /undefined/],
  ])('refuses %s rather than changing it', (_label, value, message) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(value)).toThrow(message);
  });

  it('accepts objects without a prototype', () => {
    const bare = Object.create(null) as Record<string, number>;
    bare.z = 1;
    bare.a = 2;
    expect(canonicalJson(bare)).toBe('{"a":2,"z":1}');
  });
});
