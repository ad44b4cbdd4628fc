import { type z } from 'zod';

/** zod issues as one line a person can act on: `path: message; path: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ');
}
