/**
 * The prompt is never stored (privacy rule), but a model may repeat it: small models like to
 * quote the request in their `reason` ("as you asked for …"). A reason is only a nice-to-have
 * line on the draft, so one that repeats any stretch of the request is dropped before anything is
 * stored. Titles, artists and albums are not judged this way: a request naming a song names what
 * the model should answer.
 */

/** A stretch of the request this long, repeated in a reason, drops the reason. */
export const ECHO_WINDOW = 12;
/** Requests shorter than this ("jazz") say nothing private; a reason may use the same word. */
const MIN_PRIVATE_LENGTH = 6;

const normalized = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export function echoesPrompt(text: string, prompt: string): boolean {
  const haystack = normalized(text);
  const request = normalized(prompt);
  if (request.length < MIN_PRIVATE_LENGTH) return false;
  if (request.length <= ECHO_WINDOW) return haystack.includes(request);
  for (let start = 0; start + ECHO_WINDOW <= request.length; start += 1) {
    if (haystack.includes(request.slice(start, start + ECHO_WINDOW))) return true;
  }
  return false;
}
