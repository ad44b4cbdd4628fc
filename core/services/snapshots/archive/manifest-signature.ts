import { createHash } from 'node:crypto';
import nacl from 'tweetnacl';

/**
 * The optional ed25519 signature of a snapshot manifest (issue 30, "an optional ed25519 signature
 * of the manifest with the instance's key, verified when present"). The manifest declares the key
 * (`signature: {algorithm, key_id, public_key}`), so the key is itself covered by the checksum and
 * the signature; the member `manifest.sig` holds the detached signature, base64, over the
 * domain-separated bytes `SIGNED_CONTEXT || manifest.json`. The manifest pins every payload's
 * sha256, so signing it signs the whole archive, its snapshot id and its timestamps.
 */

/** Domain separation: a signature over a manifest can never be replayed as one over other bytes. */
const SIGNED_CONTEXT = Buffer.from('opl-snapshot-manifest-v1\n', 'utf8');
/** One base64 line of a 64-byte signature, and a newline. */
const SIGNATURE_LINE = /^([A-Za-z0-9+/]{86}==)\n$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/;

export interface SnapshotSigningKey {
  readonly keyId: string;
  /** base64, 32 bytes. */
  readonly publicKey: string;
  /** Signs the bytes handed to it; the secret key never leaves the object that holds it. */
  sign(message: Uint8Array): Uint8Array;
}

/** A public key's id: `snap-` and the first 16 hex digits of its sha256 (a name, not a secret). */
export function signingKeyId(publicKey: string): string {
  return `snap-${createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 16)}`;
}

/** A base64 ed25519 public key, or null when the text is not one. */
export function parsePublicKey(text: string): string | null {
  const trimmed = text.trim();
  if (!BASE64_KEY.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === nacl.sign.publicKeyLength && bytes.toString('base64') === trimmed ? trimmed : null;
}

export function signedBytes(manifestBytes: Uint8Array): Uint8Array {
  return Buffer.concat([SIGNED_CONTEXT, manifestBytes]);
}

/** The `manifest.sig` member's text for manifest bytes. */
export function signatureMember(key: SnapshotSigningKey, manifestBytes: Uint8Array): string {
  return `${Buffer.from(key.sign(signedBytes(manifestBytes))).toString('base64')}\n`;
}

/** The detached signature bytes of a `manifest.sig` member, or null when it is not one base64 line of 64 bytes. */
export function parseSignatureMember(text: string): Uint8Array | null {
  const match = SIGNATURE_LINE.exec(text);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64');
  return bytes.length === nacl.sign.signatureLength && bytes.toString('base64') === match[1] ? bytes : null;
}

export function signatureVerifies(manifestBytes: Uint8Array, signature: Uint8Array, publicKey: string): boolean {
  const key = Buffer.from(publicKey, 'base64');
  if (key.length !== nacl.sign.publicKeyLength) return false;
  return nacl.sign.detached.verify(signedBytes(manifestBytes), signature, key);
}

/** A signing key from a 64-byte ed25519 secret key, checked against its public half. */
export function signingKeyFromSecret(secretKey: Uint8Array): SnapshotSigningKey {
  if (secretKey.length !== nacl.sign.secretKeyLength) throw new Error('not an ed25519 secret key');
  const secret = Uint8Array.from(secretKey);
  const publicKey = Buffer.from(nacl.sign.keyPair.fromSecretKey(secret).publicKey).toString('base64');
  return {
    keyId: signingKeyId(publicKey),
    publicKey,
    sign: (message) => nacl.sign.detached(message, secret),
  };
}
