import { NotFound } from '../errors.ts';

/** What a provider id is made of (letters, digits and `. - _ ~`); `.` and `..` alone are path steps, not ids. */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,200}$/;

/**
 * An id taken from input, checked before it becomes a path segment: one no such id can be
 * (`../../x`, `a/b`, `%2F`) names nothing, so it is NotFound here. Encoded, it would reach the
 * host's fetch as an encoded separator, which the host refuses as a request the plugin may not
 * make — and that refusal would read as the provider failing, not as a wrong id.
 */
export function pathSegment(id: string, provider: string): string {
  if (!ID.test(id)) throw new NotFound(`No ${provider} item has the id ${JSON.stringify(id.slice(0, 80))}: ${provider} ids are letters, digits, dots and dashes.`);
  return id;
}
