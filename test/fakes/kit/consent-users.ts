/**
 * Who signs in on a fake's authorize page: a user set to approve at once (tests, the demo), or
 * else the most recent account on a consent form, created on demand when there is none yet.
 */

export interface ConsentUsers {
  /** The user the authorize page approves at once, or null for the consent form. */
  authorizeUserId(): string | null;
  /** The user the consent form signs in as (the most recent account), created on demand. */
  consentUserId(): string;
}

/** What a redirect-flow fake's OAuth routes need besides its state. */
export interface RedirectFlowOptions extends ConsentUsers {
  /** Seconds an access token lives. */
  readonly accessTokenTtlS: number;
}

export class AuthorizeUsers implements ConsentUsers {
  #auto: string | null = null;
  #latest: string | null = null;
  readonly #createDefault: () => string;

  /** `createDefault`: makes the account the consent form shows when no account exists yet. */
  constructor(createDefault: () => string) {
    this.#createDefault = createDefault;
  }

  readonly authorizeUserId = (): string | null => this.#auto;

  readonly consentUserId = (): string => {
    this.#latest ??= this.#createDefault();
    return this.#latest;
  };

  readonly setAuthorizeUser = (userId: string | null): void => {
    this.#auto = userId;
  };

  /** A new account becomes the one the consent form signs in as. */
  accountCreated(userId: string): void {
    this.#latest = userId;
  }
}
