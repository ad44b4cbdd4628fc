import type { z } from 'zod';
import { integer } from './env-values.ts';

/**
 * The `OPL_USER_*` variables: how much one user of a hosted instance may use. Kept beside
 * config.schema.ts (which spreads `userLimitsEnvShape` into the one schema) like the OIDC variables.
 * A self-hosted instance has one owner and applies none of them.
 */

const MIB = 1024 * 1024;

export const userLimitsEnvShape = {
  OPL_USER_MAX_CONCURRENT_JOBS: integer(1, 1000)
    .default(3)
    .describe('Hosted mode: most migration jobs one user may have queued or running at once; more is refused with 429 until one ends.'),
  OPL_USER_MAX_JOBS_PER_DAY: integer(1, 100_000)
    .default(50)
    .describe('Hosted mode: most migration jobs one user may start in 24 hours (sync runs included); more is refused with 429 saying when the oldest leaves the window.'),
  OPL_USER_MAX_IMPORT_BYTES_PER_DAY: integer(1024, 1024 * 1024 * MIB)
    .default(200 * MIB)
    .describe('Hosted mode: most bytes of files and pasted text one user may import in 24 hours; more is refused with 429 saying when there is room again.'),
  OPL_USER_MAX_SNAPSHOT_BYTES: integer(1024, 1024 * 1024 * MIB)
    .default(1024 * MIB)
    .describe('Hosted mode: most bytes of snapshot archives one user may keep; a new snapshot beyond it is refused with 429 until older snapshots are deleted.'),
};

type UserLimitsEnv = { [K in keyof typeof userLimitsEnvShape]: z.output<(typeof userLimitsEnvShape)[K]> };

export interface UserLimitsConfig {
  concurrentJobs: number;
  jobsPerDay: number;
  importBytesPerDay: number;
  snapshotBytes: number;
}

export function toUserLimitsConfig(env: UserLimitsEnv): UserLimitsConfig {
  return {
    concurrentJobs: env.OPL_USER_MAX_CONCURRENT_JOBS,
    jobsPerDay: env.OPL_USER_MAX_JOBS_PER_DAY,
    importBytesPerDay: env.OPL_USER_MAX_IMPORT_BYTES_PER_DAY,
    snapshotBytes: env.OPL_USER_MAX_SNAPSHOT_BYTES,
  };
}
