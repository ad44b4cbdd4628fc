// Test support (not bundled: only index.ts and what it imports are). Runs the plugin the way the
// host does: inputs validated and defaulted by the operation schemas, results validated likewise.
import type { FormatContext } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS, type OperationCallInput, type OperationResult } from '@opl/plugin-sdk/schemas';
import plugin from './index.ts';

export function fakeContext(): FormatContext {
  const noop = (): void => undefined;
  return {
    fetch: () => Promise.reject(new Error('format plugins have no network')),
    log: { debug: noop, info: noop, warn: noop, error: noop },
    decodeText: (bytes, encoding = 'utf-8') => new TextDecoder(encoding).decode(bytes),
    encodeText: (text) => new TextEncoder().encode(text),
    now: () => '2024-06-01T00:00:00Z',
  };
}

const ctx = fakeContext();

export async function serializeChunks(input: OperationCallInput<'serialize'>): Promise<string[]> {
  const operation = plugin.operations.serialize;
  if (!operation) throw new Error('the plugin has no serialize');
  const chunks: string[] = [];
  for await (const chunk of operation(FORMAT_OPERATIONS.serialize.input.parse(input), ctx)) {
    if (typeof chunk !== 'string') throw new Error('expected string chunks');
    chunks.push(chunk);
  }
  return chunks;
}

export async function serialize(input: OperationCallInput<'serialize'>): Promise<string> {
  return (await serializeChunks(input)).join('');
}

export async function parseBytes(bytes: Uint8Array, filename: string | null = 'open-playlist-bundle.json'): Promise<OperationResult<'parse'>> {
  const operation = plugin.operations.parse;
  if (!operation) throw new Error('the plugin has no parse');
  const result = await operation(FORMAT_OPERATIONS.parse.input.parse({ bytes, filename, media_type: 'application/vnd.open-playlist+json' }), ctx);
  return FORMAT_OPERATIONS.parse.output.parse(result);
}

export function parseText(text: string): Promise<OperationResult<'parse'>> {
  return parseBytes(new TextEncoder().encode(text));
}
