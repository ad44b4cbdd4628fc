/**
 * Flags Debian Chromium needs on these machines: no sandbox (runs as root in a container), no GPU,
 * and nothing that phones home, since there is no internet and the attempts stall the browser.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export function chromiumExecutablePath(): string {
  return process.env['OPL_CHROMIUM_PATH'] ?? '/usr/bin/chromium';
}
