import { z } from 'zod';
import { retentionSchema, snapshotScheduleSchema } from './snapshot-schedule.ts';

/**
 * A snapshot profile's selection (SPEC Snapshots rule 1): connected accounts and, per account,
 * the collections to keep — every playlist it has when the snapshot is taken (`all`), or the
 * listed ids (`liked` is the liked-tracks collection).
 */
export const profileSelectionSchema = z
  .object({
    accounts: z
      .array(
        z
          .object({
            account_id: z.uuid(),
            collections: z.union([z.literal('all'), z.array(z.string().min(1).max(500)).min(1).max(10_000)]),
          })
          .strict(),
      )
      .min(1)
      .max(50)
      .refine((accounts) => new Set(accounts.map((account) => account.account_id)).size === accounts.length, 'an account is listed twice'),
  })
  .strict();

export type ProfileSelection = z.output<typeof profileSelectionSchema>;

/** A profile as sent: replaced whole by PUT (a schedule or retention left out is turned off). */
export const profileBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    selection: profileSelectionSchema,
    schedule: snapshotScheduleSchema.nullable().default(null).describe('Take snapshots on their own, daily or weekly; null: only on request'),
    retention: retentionSchema.nullable().default(null).describe("Which of the profile's snapshots are kept; null: all"),
  })
  .strict();

export type ProfileBody = z.output<typeof profileBodySchema>;
