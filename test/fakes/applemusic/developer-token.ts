import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Apple's developer tokens: ES256 JWTs whose header names the key (`kid`) and whose claims name the
 * team (`iss`), the issue time (`iat`) and the expiry (`exp`, at most six months later). The fake
 * keeps the public halves of the keys it trusts and checks every request's token against them.
 */

/** Apple's ceiling for a developer token's lifetime: 15 777 000 seconds (six months). */
export const MAX_LIFETIME_S = 15_777_000;
/** Clock skew the fake forgives on `iat`. */
const SKEW_S = 60;

export interface DeveloperKeyMaterial {
  readonly team_id: string;
  readonly key_id: string;
  /** PKCS#8 PEM of the EC P-256 private key: what `OPL_PROVIDER_CLIENTS_FILE` takes as `private_key_pem`. */
  readonly private_key_pem: string;
}

export interface TrustedKey {
  readonly teamId: string;
  readonly keyId: string;
  readonly publicKey: KeyObject;
}

/** A fresh P-256 key pair for a made-up team, as a developer would download it from Apple. */
export function generateDeveloperKey(teamId: string, keyId: string): { material: DeveloperKeyMaterial; trusted: TrustedKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    material: { team_id: teamId, key_id: keyId, private_key_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    trusted: { teamId, keyId, publicKey },
  };
}

export function trustedKeyFromPem(teamId: string, keyId: string, pem: string): TrustedKey {
  return { teamId, keyId, publicKey: createPublicKey(pem) };
}

/** Signs a developer token (tests and the contract suite; the engine signs its own). */
export function signDeveloperToken(material: DeveloperKeyMaterial, options: { nowS?: number; lifetimeS?: number; keyId?: string; teamId?: string } = {}): string {
  const now = options.nowS ?? Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'ES256', kid: options.keyId ?? material.key_id, typ: 'JWT' })}.${encode({ iss: options.teamId ?? material.team_id, iat: now, exp: now + (options.lifetimeS ?? 3600) })}`;
  const signature = sign('sha256', Buffer.from(input), { key: material.private_key_pem, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `${input}.${signature}`;
}

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Null when the token is valid; otherwise why not (for the fake's own error detail). */
export function developerTokenProblem(token: string | null, trusted: readonly TrustedKey[], nowS = Math.floor(Date.now() / 1000)): string | null {
  if (!token) return 'missing developer token';
  const parts = token.split('.');
  if (parts.length !== 3) return 'malformed developer token';
  const header = decodePart(parts[0]!);
  const claims = decodePart(parts[1]!);
  if (!header || !claims) return 'malformed developer token';
  if (header['alg'] !== 'ES256') return 'developer token must be signed with ES256';
  const key = trusted.find((candidate) => candidate.keyId === header['kid']);
  if (!key) return 'unknown key id';
  if (claims['iss'] !== key.teamId) return 'issuer does not match the key';
  const iat = claims['iat'];
  const exp = claims['exp'];
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'iat and exp are required';
  if (iat > nowS + SKEW_S) return 'token issued in the future';
  if (exp <= nowS) return 'developer token expired';
  if (exp - iat > MAX_LIFETIME_S) return 'developer token lifetime exceeds six months';
  const valid = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
  return valid ? null : 'bad signature';
}
