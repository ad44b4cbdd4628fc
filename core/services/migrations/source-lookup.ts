import type { Manifest, Track } from '@opl/plugin-sdk';
import type { AccountView, ConnectionService } from '../connections/connection.service.ts';

/**
 * Songs that are only a link of another service (a pasted TIDAL link migrated to Spotify) have
 * nothing to search the target by. When the owner has connected an account of the link's service
 * whose plugin implements `lookupTracks`, that service's own catalogue says what the link is —
 * title, artists, album, ISRC, length — and the match service searches the target for that. The
 * catalogue is read with the owner's own account; nothing is written there, and nothing is asked
 * of a service the owner has not connected.
 */

export interface SourceLookupOptions {
  connections: Pick<ConnectionService, 'list' | 'call'>;
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  /** The operations a loaded plugin implements (empty when it is not loaded). */
  pluginOperations(pluginId: string): readonly string[];
}

/**
 * What a service said of one link: its track (null when it has none, or nobody could be asked),
 * or why it could not be asked (`failure`, in words: the service was down, rate limited, the
 * account needs reconnecting).
 */
export interface LookupAnswer {
  track: Track | null;
  failure: string | null;
}

/** One run's lookups: each URI is asked at most once, each service's account chosen once. */
export type LinkLookup = (provider: string, uri: string) => Promise<LookupAnswer>;

const NONE: LookupAnswer = { track: null, failure: null };

export class SourceLookup {
  readonly #o: SourceLookupOptions;

  constructor(options: SourceLookupOptions) {
    this.#o = options;
  }

  /** Whether the service's plugin can look up its links at all. */
  supports(provider: string): boolean {
    const manifest = this.#o.catalogue.providerPlugin(provider);
    return manifest !== undefined && this.#o.pluginOperations(manifest.id).includes('lookupTracks');
  }

  /** The services (provider keys) the owner can look up links of: a usable connected account, and a plugin that implements it. */
  async providers(ownerId: string): Promise<Set<string>> {
    const accounts = await this.#o.connections.list(ownerId);
    return new Set(accounts.filter((account) => usable(account) && this.supports(account.provider)).map((account) => account.provider));
  }

  /**
   * A lookup for one migration run of `ownerId`. The account of a service is its first usable
   * connected account (oldest first, as listed). A failure to look up (the service is down, the
   * account needs reconnecting) is answered as such for that URI, not thrown: the song then stays
   * unsearchable, its reason saying why the service could not tell, and the migration goes on.
   */
  forOwner(ownerId: string): LinkLookup {
    let accounts: Promise<AccountView[]> | null = null;
    const answers = new Map<string, Promise<LookupAnswer>>();
    return (provider, uri) => {
      if (!this.supports(provider)) return Promise.resolve(NONE);
      const key = `${provider}\u0000${uri}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = (async () => {
          accounts ??= this.#o.connections.list(ownerId);
          const account = (await accounts).find((candidate) => candidate.provider === provider && usable(candidate));
          if (!account) return NONE;
          try {
            const { tracks } = await this.#o.connections.call(ownerId, account.id, 'lookupTracks', { uris: [uri] });
            return { track: tracks[0] ?? null, failure: null };
          } catch (error) {
            const said = (error instanceof Error ? error.message.slice(0, 300) : 'failed').replace(/[.\s]+$/, '');
            return { track: null, failure: `${provider} could not be asked what it is right now: ${said}.` };
          }
        })();
        answers.set(key, answer);
      }
      return answer;
    };
  }
}

function usable(account: AccountView): boolean {
  return account.status === 'connected';
}
