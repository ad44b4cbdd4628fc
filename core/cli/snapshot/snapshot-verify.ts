import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parsePublicKey, SnapshotVerificationError, signingKeyId, verifySnapshotArchive, type SnapshotLimits } from '../../services/snapshots/archive/index.ts';
import { terminalText } from '../terminal-text.ts';

export const SNAPSHOT_VERIFY_USAGE = `Usage: opl snapshot verify <archive.zip> [--json] [--public-key <key>]...

Verifies a library snapshot archive offline: no engine, no database, no network. The archive is
read in place and never extracted. The caps are the OPL_SNAPSHOT_MAX_* variables. A signed
archive's ed25519 signature is always checked.
  --json              print the result as one JSON object on standard output
  --public-key <key>  require a signature by this key: base64, or a file holding it or the JSON of
                      GET /api/snapshots/signing-key (repeat for several trusted keys)

Exit codes: 0 verified, 1 refused (the reason code and why are printed), 64 usage error.
`;

export interface SnapshotIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

class UsageError extends Error {}

function parse(args: readonly string[]): { file: string; json: boolean; publicKeys: string[] | null } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { json: { type: 'boolean' }, 'public-key': { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return 'help';
  if (parsed.positionals.length !== 1) throw new UsageError('name exactly one archive file');
  const keys = parsed.values['public-key'];
  return { file: parsed.positionals[0]!, json: parsed.values.json === true, publicKeys: keys && keys.length > 0 ? keys : null };
}

/** A `--public-key` value: the base64 key itself, or a file holding it or the signing-key JSON. */
async function trustedKey(value: string): Promise<string> {
  const direct = parsePublicKey(value);
  if (direct) return direct;
  let text: string;
  try {
    text = (await readFile(value, 'utf8')).slice(0, 64 * 1024);
  } catch {
    throw new UsageError(`--public-key ${terminalText(value)} is neither a base64 ed25519 public key nor a readable file`);
  }
  const plain = parsePublicKey(text);
  if (plain) return plain;
  try {
    const document = JSON.parse(text) as { public_key?: unknown; key?: { public_key?: unknown } | null };
    const key = typeof document.public_key === 'string' ? document.public_key : document.key?.public_key;
    const parsed = typeof key === 'string' ? parsePublicKey(key) : null;
    if (parsed) return parsed;
  } catch {
    // not JSON: refused below
  }
  throw new UsageError(`the file ${terminalText(value)} holds no ed25519 public key`);
}

/** `opl snapshot verify <file>`: the same verifier the engine runs before it accepts an archive. */
export async function snapshotVerifyCommand(args: readonly string[], limits: SnapshotLimits, io: SnapshotIo): Promise<number> {
  let options;
  try {
    options = parse(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`opl snapshot verify: ${error.message}\n\n${SNAPSHOT_VERIFY_USAGE}`);
    return 64;
  }
  if (options === 'help') {
    io.stdout.write(SNAPSHOT_VERIFY_USAGE);
    return 0;
  }
  let trustedKeys: string[] | null = null;
  try {
    if (options.publicKeys) trustedKeys = await Promise.all(options.publicKeys.map(trustedKey));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`opl snapshot verify: ${error.message}\n`);
    return 64;
  }
  const shownFile = terminalText(options.file);
  try {
    if (!(await stat(options.file)).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    io.stderr.write(`opl snapshot verify: cannot read ${shownFile} (${code})\n`);
    return 1;
  }
  try {
    const verified = await verifySnapshotArchive(options.file, limits, trustedKeys ? { trustedKeys } : {});
    const { manifest, signature } = verified;
    if (options.json) {
      io.stdout.write(
        `${JSON.stringify({ verified: true, snapshot_id: manifest.snapshot_id, library_id: manifest.library_id, completed_at: manifest.completed_at, archive_bytes: verified.archiveBytes, uncompressed_bytes: verified.uncompressedBytes, counts: manifest.counts, partial_failures: manifest.partial_failures, signature: signature ? { ...signature, trusted: trustedKeys !== null } : null })}\n`,
      );
      return 0;
    }
    const signedBy = signature
      ? `  signed by ${signingKeyId(signature.public_key)}${trustedKeys ? ' (a trusted key)' : ' (the signature holds; name the key with --public-key to require it)'}`
      : '  not signed';
    const lines = [
      `verified: ${shownFile}`,
      signedBy,
      `  snapshot ${manifest.snapshot_id} of library ${manifest.library_id}, taken ${manifest.completed_at}`,
      `  ${manifest.counts.collections} collections, ${manifest.counts.items} items, ${verified.archiveBytes} bytes (${verified.uncompressedBytes} decompressed)`,
      ...manifest.sources.map((source) => `  source ${source.source_id}: ${terminalText(source.provider)} — ${terminalText(source.label)}`),
    ];
    if (manifest.partial_failures.length > 0) {
      lines.push(`  partial: ${manifest.counts.partial_collections} collections incomplete, ${manifest.counts.failed_collections} unreadable when the snapshot was taken`);
      for (const failure of manifest.partial_failures) lines.push(`    ${failure.member} (${terminalText(failure.source_collection_id ?? '-')}): ${failure.failure.code} — ${terminalText(failure.failure.message)}`);
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof SnapshotVerificationError)) throw error;
    if (options.json) io.stdout.write(`${JSON.stringify({ verified: false, reason: error.reason, member: error.member, message: error.message })}\n`);
    io.stderr.write(`opl snapshot verify: refused (${error.reason}): ${terminalText(error.message)}\n`);
    return 1;
  }
}
