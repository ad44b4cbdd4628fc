import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir, projectRoot, runtimeEnv } from '../../../core/bootstrap/runtime.mjs';

describe("Node's module compile cache for the engine's processes", () => {
  const before = process.env['NODE_COMPILE_CACHE'];
  afterEach(() => {
    if (before === undefined) delete process.env['NODE_COMPILE_CACHE'];
    else process.env['NODE_COMPILE_CACHE'] = before;
  });

  it('is on by default, in the ignored node_modules/.cache of the project', () => {
    delete process.env['NODE_COMPILE_CACHE'];
    expect(runtimeEnv(process.execPath)['NODE_COMPILE_CACHE']).toBe(compileCacheDir);
    expect(compileCacheDir).toBe(join(projectRoot, 'node_modules', '.cache', 'node-compile'));
  });

  it('keeps a directory the environment names', () => {
    process.env['NODE_COMPILE_CACHE'] = '/var/cache/opl-node';
    expect(runtimeEnv(process.execPath)['NODE_COMPILE_CACHE']).toBe('/var/cache/opl-node');
  });
});
