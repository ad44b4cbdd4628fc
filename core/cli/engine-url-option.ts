/**
 * `--url` of the commands that talk to a running engine (`opl export`, `opl migrate`): an http(s)
 * address. Anything else is a usage mistake to name at once — tried as an address, it would read as
 * an engine that cannot be reached ("Is `opl start` running?").
 */
export function engineUrlProblem(value: string): string | null {
  const url = URL.parse(value);
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return null;
  return `--url takes the engine's http:// or https:// address (e.g. http://127.0.0.1:8765); not ${JSON.stringify(value)}.`;
}
