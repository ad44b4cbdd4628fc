import { inject } from 'vitest';
import { LEDGER_ENV, TRANSCRIPT_ENV } from '../../support/secret-scan.ts';

// Every integration worker: fakes record issued secrets and test apps write transcripts where the
// run's global setup scans them at the end (see test/support/secret-scan.ts).
process.env[LEDGER_ENV] = inject('oplSecretLedger');
process.env[TRANSCRIPT_ENV] = inject('oplTranscriptDir');
