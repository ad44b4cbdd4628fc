import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { ShareRecipientService } from '../shares/index.ts';
import type { SignInThrottle } from '../sign-in/index.ts';
import type { UserLimits } from '../user-limits/index.ts';
import type { OidcSignIn } from '../users/index.ts';
import type { OwnerSessionService } from './owner-session.service.ts';

/**
 * Hourly removal of expired owner sessions and share-recipient sessions, in bounded batches so one run never holds long locks,
 * and of sign-in bookkeeping nobody needs any more (quiet throttle keys, expired device cookies,
 * OpenID sign-ins begun and never finished, per-user usage older than the limits' 24-hour windows).
 */
export const expireOwnerSessionsJob = defineJob({
  name: 'maintenance.expire-owner-sessions',
  payload: z.object({ batchSize: z.number().int().min(1).max(10_000) }).strict(),
  schedule: { cron: '7 * * * *', payload: { batchSize: 500 } },
  queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 300 },
  async handle(payload, { deps, logger, signal }: JobContext<{ ownerSessions: OwnerSessionService; signInThrottle: SignInThrottle; oidcSignIn: OidcSignIn | null; userLimits: UserLimits | null; shareRecipients: ShareRecipientService }>) {
    let removed = 0;
    for (;;) {
      if (signal.aborted) break;
      const batch = (await deps.ownerSessions.purgeExpired(payload.batchSize)) + (await deps.shareRecipients.purgeExpired(payload.batchSize));
      removed += batch;
      if (batch < payload.batchSize) break;
    }
    if (removed > 0) logger.info({ removed }, 'expired owner sessions removed');
    await deps.signInThrottle.purge();
    await deps.oidcSignIn?.purge();
    await deps.userLimits?.purge();
  },
});
