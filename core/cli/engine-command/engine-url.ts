import type { Config } from '../../config/index.ts';

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

/** The engine to talk to: `--url`, or else this instance's own OPL_HOST:OPL_PORT. */
export function engineUrl(config: Config, url: string | null): string {
  if (url) return url;
  // A server listening on every interface is reached on the loopback one.
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}
