/** The per-user limits of a hosted instance, by the name refusals give them. */
export type UserLimitName = 'concurrent_jobs' | 'jobs_per_day' | 'import_bytes_per_day' | 'snapshot_bytes';

/** The variable that sets each limit, named in refusals so an administrator knows what to raise. */
export const USER_LIMIT_VARIABLES: Record<UserLimitName, string> = {
  concurrent_jobs: 'OPL_USER_MAX_CONCURRENT_JOBS',
  jobs_per_day: 'OPL_USER_MAX_JOBS_PER_DAY',
  import_bytes_per_day: 'OPL_USER_MAX_IMPORT_BYTES_PER_DAY',
  snapshot_bytes: 'OPL_USER_MAX_SNAPSHOT_BYTES',
};

/**
 * A user reached one of their limits. Says which, how much is used of how much, and when there is
 * room again: a time for the 24-hour windows; for the others, what frees it (`resetsWhen`).
 */
export class UserLimitReached extends Error {
  readonly limit: UserLimitName;
  readonly maximum: number;
  readonly used: number;
  readonly resetsAt: Date | null;
  readonly resetsWhen: string;

  constructor(facts: { limit: UserLimitName; maximum: number; used: number; resetsAt: Date | null; resetsWhen: string; message: string }) {
    super(facts.message);
    this.name = 'UserLimitReached';
    this.limit = facts.limit;
    this.maximum = facts.maximum;
    this.used = facts.used;
    this.resetsAt = facts.resetsAt;
    this.resetsWhen = facts.resetsWhen;
  }
}
