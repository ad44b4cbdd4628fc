import { z } from 'zod';

/** Value shapes several `OPL_*` variable groups share (config.schema.ts and its feature files). */

/** A whole number within bounds. */
export const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Text whose empty value means unset. */
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();
