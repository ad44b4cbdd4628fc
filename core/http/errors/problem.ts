import { z } from 'zod';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from './error-catalogue.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9457 problem details, plus our stable `code` and the request id for support. */
export const problemSchema = z
  .object({
    type: z.string().describe('URI reference identifying the problem type'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    request_id: z.string().optional(),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('Field-level problems of a validation failure'),
  })
  .catchall(z.unknown())
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof problemSchema>;

export function problemTypeUri(code: ErrorCode): string {
  return `urn:opl:problem:${code.replaceAll('_', '-')}`;
}

export function buildProblem(
  code: ErrorCode,
  detail: string,
  context: { instance?: string; requestId?: string; extensions?: Record<string, unknown> } = {},
): Problem {
  const entry = ERROR_CATALOGUE[code];
  return {
    ...context.extensions,
    type: problemTypeUri(code),
    title: entry.title,
    status: entry.status,
    detail,
    code,
    ...(context.instance === undefined ? {} : { instance: context.instance }),
    ...(context.requestId === undefined ? {} : { request_id: context.requestId }),
  };
}

/** A route's error response in the OpenAPI document: problem+json with our Problem schema. */
export function problemResponse(description: string) {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } };
}
