import { type Manifest, manifestSchema } from '../manifest.schema.ts';
import { directoryBundleSource, type BundleSource } from './bundle-source.ts';
import { decodeUtf8, sha256Hex } from './encoding.ts';
import { describeIssues } from './describe-issues.ts';
import { evaluateKeyTrust, type KeyRecordLookup } from './key-trust.ts';
import { type Refusal, refuse } from './refusal.ts';
import { type SignatureFile, signatureFileSchema } from './signature.schema.ts';
import { manifestSha256, signatureIsValid } from './signature.ts';
import { type TrustStore } from './trust-store.schema.ts';

/**
 * Bundle verification: the one place that decides whether bytes from a registry may become a
 * running plugin. Every check refuses with a reason code and a sentence; nothing is repaired.
 */

export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'signature.json';
const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface VerifyBundleOptions {
  trust: TrustStore;
  /** Key records (rotation endorsements, publisher revocations); usually the registry the bundle came from. */
  registry?: KeyRecordLookup | null;
  /** Development only: accept a bundle that has no signature.json (a present signature must still verify). */
  allowUnsigned?: boolean;
}

export interface VerifiedBundle {
  readonly ok: true;
  readonly manifest: Manifest;
  /** The manifest document as written in manifest.json. */
  readonly manifestJson: unknown;
  readonly signed: boolean;
  /** The signing key; null for an unsigned bundle. */
  readonly keyId: string | null;
  readonly signature: SignatureFile | null;
  /** The signing key (or a key on its endorsement chain) is a test-only key. */
  readonly testOnlyKey: boolean;
  /** Every file listed in the manifest, verified against its hash. */
  readonly files: Map<string, Uint8Array>;
}

export type VerifyBundleResult = VerifiedBundle | Refusal;

async function read(source: BundleSource, path: string): Promise<Uint8Array | null | Refusal> {
  try {
    return await source.readFile(path);
  } catch (error) {
    return refuse('unreadable', `Cannot read ${path} of the bundle at ${source.location}: ${(error as Error).message}`);
  }
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'ok' in value && value.ok === false;
}

/** Reads and parses manifest.json; the parsed document is what the signature's hash covers. */
export async function readBundleManifest(source: BundleSource): Promise<{ manifest: Manifest; manifestJson: unknown; bytes: Uint8Array } | Refusal> {
  const bytes = await read(source, MANIFEST_FILE);
  if (isRefusal(bytes)) return bytes;
  if (bytes === null) return refuse('unreadable', `There is no ${MANIFEST_FILE} at ${source.location}; it is not a plugin bundle.`);
  if (bytes.length > MAX_MANIFEST_BYTES) return refuse('invalid_manifest', `${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES} bytes.`);
  const text = decodeUtf8(bytes);
  if (text === null) return refuse('invalid_manifest', `${MANIFEST_FILE} is not valid UTF-8.`);
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(text);
  } catch (error) {
    return refuse('invalid_manifest', `${MANIFEST_FILE} is not valid JSON: ${(error as Error).message}.`);
  }
  const parsed = manifestSchema.safeParse(manifestJson);
  if (!parsed.success) return refuse('invalid_manifest', `${MANIFEST_FILE} does not match the manifest schema: ${describeIssues(parsed.error)}.`);
  return { manifest: parsed.data, manifestJson, bytes };
}

/**
 * Checks that the bundle holds exactly the files its manifest lists, with their hashes. When the
 * source cannot list its files (HTTPS), only listed files are checked: an unlisted file there is
 * never fetched, so it can do no harm.
 */
export async function checkBundleFiles(source: BundleSource, manifest: Manifest): Promise<Map<string, Uint8Array> | Refusal> {
  let listing: string[] | null;
  try {
    listing = await source.listFiles();
  } catch (error) {
    return refuse('unreadable', `Cannot list the files of the bundle at ${source.location}: ${(error as Error).message}`);
  }
  const listed = new Set(Object.keys(manifest.files));
  if (listing) {
    const extra = listing.filter((path) => path !== MANIFEST_FILE && path !== SIGNATURE_FILE && !listed.has(path));
    if (extra.length > 0) {
      return refuse('unlisted_file', `The bundle contains ${extra.length === 1 ? 'a file' : 'files'} its manifest does not list: ${extra.join(', ')}. Rebuild the bundle or remove ${extra.length === 1 ? 'it' : 'them'}.`);
    }
  }
  const files = new Map<string, Uint8Array>();
  for (const path of [...listed].sort()) {
    const bytes = await read(source, path);
    if (isRefusal(bytes)) return bytes;
    if (bytes === null) return refuse('missing_file', `${path} is listed in the manifest but missing from the bundle.`);
    const actual = sha256Hex(bytes);
    if (actual !== manifest.files[path]) {
      return refuse('modified_file', `${path} was modified after the bundle was built: its sha256 is ${actual}, the manifest says ${manifest.files[path]}.`);
    }
    files.set(path, bytes);
  }
  return files;
}

/** Verifies a bundle (a directory path or any `BundleSource`) against a trust store. */
export async function verifyBundle(source: BundleSource | string, options: VerifyBundleOptions): Promise<VerifyBundleResult> {
  const bundle = typeof source === 'string' ? directoryBundleSource(source) : source;
  const read_ = await readBundleManifest(bundle);
  if (isRefusal(read_)) return read_;
  const { manifest, manifestJson } = read_;
  const plugin = `${manifest.id}@${manifest.version}`;

  const signatureBytes = await read(bundle, SIGNATURE_FILE);
  if (isRefusal(signatureBytes)) return signatureBytes;

  let signature: SignatureFile | null = null;
  let testOnlyKey = false;
  if (signatureBytes === null) {
    if (!options.allowUnsigned) {
      return refuse('unsigned', `${plugin} has no ${SIGNATURE_FILE}; sign it with \`opl-plugin sign\` (unsigned bundles load only with the development flag).`);
    }
  } else {
    const text = decodeUtf8(signatureBytes);
    let json: unknown;
    try {
      json = text === null ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = signatureFileSchema.safeParse(json);
    if (!parsed.success) return refuse('bad_signature', `${SIGNATURE_FILE} of ${plugin} is malformed${json === undefined ? ' (not UTF-8 JSON)' : `: ${describeIssues(parsed.error)}`}.`);
    signature = parsed.data;
    const { statement } = signature;
    if (statement.plugin !== plugin) return refuse('bad_signature', `${SIGNATURE_FILE} was made for ${statement.plugin}, but the manifest is ${plugin}.`);
    if (statement.manifest_sha256 !== manifestSha256(manifestJson)) {
      return refuse('modified_file', `${MANIFEST_FILE} of ${plugin} was changed after it was signed (its canonical sha256 no longer matches the signed statement).`);
    }
    if (statement.key_id !== manifest.publisher.key_id) {
      return refuse('bad_signature', `${plugin} is signed with key "${statement.key_id}", but its manifest names publisher key "${manifest.publisher.key_id}".`);
    }
    const key = await evaluateKeyTrust(statement.key_id, { trust: options.trust, registry: options.registry ?? null });
    if (!key.ok) return refuse(key.reason, `${plugin} cannot be trusted: ${key.detail}`);
    if (!signatureIsValid(signature, key.publicKey)) {
      return refuse('bad_signature', `The signature of ${plugin} does not verify with key "${statement.key_id}": it was made with a different key or ${SIGNATURE_FILE} was altered.`);
    }
    testOnlyKey = key.testOnly;
  }

  const files = await checkBundleFiles(bundle, manifest);
  if (isRefusal(files)) return files;
  return { ok: true, manifest, manifestJson, signed: signature !== null, keyId: signature?.statement.key_id ?? null, signature, testOnlyKey, files };
}
