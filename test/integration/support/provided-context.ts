/** Values the integration global setup hands to test files through `inject()`. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's embedded PostgreSQL server (maintenance database `postgres`). */
    oplTestAdminUrl: string;
    /** Temporary directory of the run, removed at teardown; per-test data dirs live below it. */
    oplTestRoot: string;
    /** The run's secret ledger and transcript directory (test/support/secret-scan.ts). */
    oplSecretLedger: string;
    oplTranscriptDir: string;
  }
}

export {};
