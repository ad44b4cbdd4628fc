// The engine's V8 heap profile (`OPL_HEAP_PROFILE`). Heap sizing is fixed when a Node process
// starts, so the profile is a set of node flags: the launchers (core/bin/opl.mjs,
// core/bootstrap/run.mjs) put them on the engine's command line and the plugin host on its
// child's. Plain JavaScript because the launchers run before the TypeScript CLI (and on old Node).
//
// `memory` (default) runs V8 with `--optimize-for-size`: smaller young generation and collections
// before the heap grows far past what is live. Measured (`npm run bench`): a 1,000,000-track export
// peaks at 1.4× the RSS of a 10,000-track one instead of 2.7×, a 10,000-track migration process at
// 393 MiB instead of 613 MiB, for about 3% more time on a cold migration and 15–30% on exports.
// It also tunes glibc's malloc (each variable only where the environment does not set it already):
// - MALLOC_ARENA_MAX=2 caps the arenas: the plugin host's isolates run on worker threads, and
//   glibc gives threads arenas of their own that keep freed memory resident. Measured on a
//   10 × 10,000-track export: the plugin-host child peaked at ~200 MiB instead of ~224 MiB, the
//   engine at ~143 MiB instead of ~155 MiB.
// - MALLOC_MMAP_THRESHOLD_=131072 pins the size from which an allocation gets pages of its own
//   (and gives them back when freed) at glibc's initial value. Left dynamic, glibc raises it to
//   the size of every large block freed, up to 32 MiB: after the first multi-megabyte IPC message
//   or file buffer, blocks of that size come from the heap arena, and freed ones stay resident
//   (the trim threshold follows at twice the size). Measured on 10 × 10,000-track exports (four
//   runs each, alternating): the engine peaked at ~124 MiB instead of ~142 MiB, the plugin host at
//   ~175 instead of ~197, for up to 8% more time.
// `speed` leaves V8's and glibc's defaults, for machines where memory is plentiful.

export const HEAP_PROFILES = ['memory', 'speed'];
export const DEFAULT_HEAP_PROFILE = 'memory';

/** The profile an environment asks for; an empty or missing variable means the default. */
export function heapProfileOf(env) {
  const value = env.OPL_HEAP_PROFILE?.trim();
  return value ? value : DEFAULT_HEAP_PROFILE;
}

/** Node flags of a profile. An unknown name gets none: the engine's configuration check refuses it with a clear message. */
export function heapProfileFlags(profile) {
  return profile === 'memory' ? ['--optimize-for-size'] : [];
}

/**
 * Environment variables of a profile, for a process the launcher or the plugin host starts (glibc
 * reads them at process start). They are defaults: a variable the environment sets wins.
 */
export function heapProfileEnv(profile) {
  return profile === 'memory' ? { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } : {};
}
