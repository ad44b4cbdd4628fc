import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * "No token in any log line, error body or API response of the whole suite": the fakes write every
 * secret they issue to a ledger (test/fakes/secret-ledger.ts); the test apps and the e2e engine
 * write their log lines and API answers to transcript files; when the run ends, every transcript is
 * searched for every secret, and a single hit fails the run.
 */

export const LEDGER_ENV = 'TEST_SECRET_LEDGER';
export const TRANSCRIPT_ENV = 'TEST_TRANSCRIPT_DIR';

export interface SecretLeak {
  readonly file: string;
  /** The first characters of the secret, enough to find it, not enough to use it. */
  readonly secretPrefix: string;
}

/** Secrets shorter than this are ignored: they could match ordinary text by chance. */
const MIN_SECRET_LENGTH = 16;

export function findLeaks(secrets: Iterable<string>, transcripts: Iterable<{ file: string; text: string }>): SecretLeak[] {
  const wanted = [...new Set([...secrets].map((secret) => secret.trim()).filter((secret) => secret.length >= MIN_SECRET_LENGTH))];
  const leaks: SecretLeak[] = [];
  for (const { file, text } of transcripts) {
    for (const secret of wanted) if (text.includes(secret)) leaks.push({ file, secretPrefix: `${secret.slice(0, 6)}…` });
  }
  return leaks;
}

/** Writes one transcript (log lines and API answers of one app) when the suite asked for them. */
export function writeTranscript(name: string, lines: readonly string[]): void {
  const dir = process.env[TRANSCRIPT_ENV];
  if (!dir || lines.length === 0) return;
  writeFileSync(join(dir, `${name}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`), lines.join('\n'));
}

/** Global setup: a fresh ledger and transcript directory for this run, inherited by workers and engines. */
export function startSecretScan(): { finish(): { leaks: SecretLeak[]; secrets: number; transcripts: number }; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'opl-secret-scan-'));
  const ledger = join(root, 'ledger.txt');
  const transcripts = join(root, 'transcripts');
  writeFileSync(ledger, '');
  mkdirSync(transcripts);
  process.env[LEDGER_ENV] = ledger;
  process.env[TRANSCRIPT_ENV] = transcripts;
  return {
    finish() {
      const secrets = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
      const files = existsSync(transcripts) ? readdirSync(transcripts) : [];
      const leaks = findLeaks(
        secrets,
        files.map((file) => ({ file, text: readFileSync(join(transcripts, file), 'utf8') })),
      );
      return { leaks, secrets: secrets.length, transcripts: files.length };
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
