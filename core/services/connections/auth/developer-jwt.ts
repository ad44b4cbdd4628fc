import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The developer token of catalog providers with a user-token flow (Apple Music): a JWT signed with
 * ES256 by the developer's private key, naming the team (`iss`) and key (`kid`). Short-lived here
 * (12 h) and re-signed as needed, so a leaked one is worth little; it is not a user secret (the
 * browser's MusicKit needs it too), but it is still never logged.
 */

const LIFETIME_S = 12 * 60 * 60;

export interface DeveloperKey {
  readonly team_id: string;
  readonly key_id: string;
  readonly private_key_file?: string | undefined;
  readonly private_key_pem?: string | undefined;
}

export class DeveloperTokenSigner {
  readonly #key: KeyObject;
  readonly #teamId: string;
  readonly #keyId: string;
  #cached: { token: string; expiresAt: number } | null = null;

  constructor(key: DeveloperKey) {
    const pem = key.private_key_pem ?? readFileSync(key.private_key_file!, 'utf8');
    this.#key = createPrivateKey(pem);
    if (this.#key.asymmetricKeyType !== 'ec' || this.#key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('the developer key must be an EC P-256 private key (ES256)');
    this.#teamId = key.team_id;
    this.#keyId = key.key_id;
  }

  token(now: Date): string {
    const seconds = Math.floor(now.getTime() / 1000);
    if (this.#cached && this.#cached.expiresAt - seconds > 60 * 60) return this.#cached.token;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signingInput = `${encode({ alg: 'ES256', kid: this.#keyId, typ: 'JWT' })}.${encode({ iss: this.#teamId, iat: seconds, exp: seconds + LIFETIME_S })}`;
    const signature = sign('sha256', Buffer.from(signingInput), { key: this.#key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    this.#cached = { token: `${signingInput}.${signature}`, expiresAt: seconds + LIFETIME_S };
    return this.#cached.token;
  }
}
