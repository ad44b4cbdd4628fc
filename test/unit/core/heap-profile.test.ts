import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_PROFILE, HEAP_PROFILES, heapProfileEnv, heapProfileFlags, heapProfileOf } from '../../../core/bootstrap/heap-profile.mjs';
import { runtimeEnv } from '../../../core/bootstrap/runtime.mjs';
import { ConfigError, loadConfig } from '../../../core/config/index.ts';

describe('heap profile (OPL_HEAP_PROFILE)', () => {
  it('defaults to memory, which runs V8 with --optimize-for-size; speed adds no flag', () => {
    expect(DEFAULT_HEAP_PROFILE).toBe('memory');
    expect(heapProfileOf({})).toBe('memory');
    expect(heapProfileOf({ OPL_HEAP_PROFILE: '  ' })).toBe('memory');
    expect(heapProfileOf({ OPL_HEAP_PROFILE: 'speed' })).toBe('speed');
    expect(heapProfileFlags('memory')).toEqual(['--optimize-for-size']);
    expect(heapProfileFlags('speed')).toEqual([]);
  });

  it('memory also caps glibc malloc arenas and pins its mmap threshold by default, below the environment; speed sets nothing', () => {
    expect(heapProfileEnv('memory')).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(heapProfileEnv('speed')).toEqual({});
    expect(heapProfileEnv('tiny')).toEqual({});
    expect(runtimeEnv(process.execPath, heapProfileEnv('memory'))['MALLOC_ARENA_MAX']).toBe(process.env['MALLOC_ARENA_MAX'] ?? '2');
    expect(runtimeEnv(process.execPath, heapProfileEnv('memory'))['MALLOC_MMAP_THRESHOLD_']).toBe(process.env['MALLOC_MMAP_THRESHOLD_'] ?? '131072');
    expect(runtimeEnv(process.execPath, { PATH: '/nowhere' })['PATH']).not.toBe('/nowhere');
  });

  it('the launcher gives an unknown name no flag, and the configuration refuses it with the choices', () => {
    expect(heapProfileFlags('tiny')).toEqual([]);
    expect(() => loadConfig({ OPL_HEAP_PROFILE: 'tiny' }, '/srv/opl')).toThrow(ConfigError);
    try {
      loadConfig({ OPL_HEAP_PROFILE: 'tiny' }, '/srv/opl');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(['OPL_HEAP_PROFILE: must be memory or speed (got "tiny")']);
    }
  });

  it('the configuration and the launcher agree on the names and the default', () => {
    expect(loadConfig({}, '/srv/opl').heapProfile).toBe(DEFAULT_HEAP_PROFILE);
    for (const profile of HEAP_PROFILES) expect(loadConfig({ OPL_HEAP_PROFILE: profile }, '/srv/opl').heapProfile).toBe(profile);
  });
});
