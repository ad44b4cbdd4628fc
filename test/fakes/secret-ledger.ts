import { appendFileSync } from 'node:fs';

/**
 * The suite-wide secret ledger: every token a fake provider issues (access and refresh tokens,
 * authorization codes) is appended to the file named by `TEST_SECRET_LEDGER` when the test suite
 * sets it. At the end of the run the suite scans every API answer and log line it captured for
 * any of them (see test/support/secret-scan.ts). Outside the test suite (the demo) nothing is
 * written.
 */
export function issuedSecret<T extends string>(value: T): T {
  const ledger = process.env['TEST_SECRET_LEDGER'];
  if (ledger) appendFileSync(ledger, `${value}\n`);
  return value;
}
