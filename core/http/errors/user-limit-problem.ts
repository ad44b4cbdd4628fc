import { UserLimitReached, USER_LIMIT_VARIABLES } from '../../services/user-limits/index.ts';
import { AppError } from './app-error.ts';

/**
 * A per-user limit as problem+json: 429 `user_limit_reached` naming the limit (`limit`, `maximum`,
 * `used`, `variable`) and when it resets (`resets_at` and `Retry-After` for the 24-hour windows,
 * `resets_when` always). Null for any other error.
 */
export function userLimitProblem(error: unknown): AppError | null {
  if (!(error instanceof UserLimitReached)) return null;
  const resetsAt = error.resetsAt?.toISOString() ?? null;
  const retryAfter = error.resetsAt ? Math.max(1, Math.ceil((error.resetsAt.getTime() - Date.now()) / 1000)) : null;
  return new AppError('user_limit_reached', error.message, {
    extensions: { limit: error.limit, maximum: error.maximum, used: error.used, variable: USER_LIMIT_VARIABLES[error.limit], resets_at: resetsAt, resets_when: error.resetsWhen },
    ...(retryAfter === null ? {} : { headers: { 'retry-after': String(retryAfter) } }),
  });
}
