import { RateLimited, type Manifest, type Track } from '@opl/plugin-sdk';
import type { AccountView, ConnectionService } from '../connections/connection.service.ts';
import { namedLinks } from '../matching/index.ts';

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
 * or why it could not be asked (`failure`, in words: the service was down, its daily quota is
 * used up, the account needs reconnecting). `retry` when the service only asked to slow down: the
 * song is then not given up but matched again once the wait is over (see `matchTrack`).
 */
export interface LookupAnswer {
  track: Track | null;
  failure: string | null;
  retry?: RateLimited;
}

/** A link to ask its service about. */
export interface LinkAsk {
  provider: string;
  uri: string;
}

/**
 * One run's lookups: each URI is asked at most once, each service's account chosen once.
 * `prefetch` asks about many links at once, up to `LOOKUP_BATCH` a call per service, so that a
 * pasted list of 500 TIDAL links costs 10 calls rather than 500; `lookup` then answers from what
 * was fetched, and asks on its own for a link no prefetch covered or whose batch failed.
 */
export interface LinkLookup {
  lookup: (provider: string, uri: string) => Promise<LookupAnswer>;
  prefetch: (asks: readonly LinkAsk[]) => Promise<void>;
}

/** URIs per `lookupTracks` call: the operation's bound. */
const LOOKUP_BATCH = 50;
const NONE: LookupAnswer = { track: null, failure: null };

/**
 * The links a link-only source can be asked about, first to last (`namedLinks`): those of a known
 * service other than the target's own (the target itself takes or refuses those).
 */
export function linkAsks(source: Pick<Track, 'provider_uris' | 'metadata'>, targetProvider: string): LinkAsk[] {
  return namedLinks(source).flatMap(({ service, link }) => (service !== null && service !== targetProvider ? [{ provider: service, uri: link }] : []));
}

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
   * The lookups of one migration run of `ownerId`. The account of a service is its first usable
   * connected account (oldest first, as listed). A failure to look up (the service is down, the
   * account needs reconnecting) is answered as such for those URIs, not thrown: such a song then
   * stays unsearchable, its reason saying why the service could not tell, and the migration goes on.
   * A rate limit is answered with `retry` (the matcher makes the run wait it out); the answers
   * last one run of the matcher, so the next run asks again.
   */
  forOwner(ownerId: string): LinkLookup {
    let accounts: Promise<AccountView[]> | null = null;
    const answers = new Map<string, Promise<LookupAnswer>>();
    const keyOf = (provider: string, uri: string) => `${provider}\u0000${uri}`;
    /** One `lookupTracks` call; `rateLimited` when the service asked to slow down (or its quota is used up). */
    const ask = async (provider: string, uris: readonly string[]): Promise<{ answers: LookupAnswer[]; rateLimited: boolean }> => {
      accounts ??= this.#o.connections.list(ownerId);
      const account = (await accounts).find((candidate) => candidate.provider === provider && usable(candidate));
      if (!account) return { answers: uris.map(() => NONE), rateLimited: false };
      try {
        const { tracks } = await this.#o.connections.call(ownerId, account.id, 'lookupTracks', { uris: [...uris] });
        return { answers: uris.map((_, index) => ({ track: tracks[index] ?? null, failure: null })), rateLimited: false };
      } catch (error) {
        const said = (error instanceof Error ? error.message.slice(0, 300) : 'failed').replace(/[.\s]+$/, '');
        const failure = `${provider} could not be asked what it is right now: ${said}.`;
        // A short pacing limit is waited out; a used-up daily quota is not (it resets hours later).
        const retry = error instanceof RateLimited && error.quota === null ? new RateLimited(`Reading the pasted ${provider} links: ${said}.`, error.retryAfterSeconds) : undefined;
        return { answers: uris.map(() => (retry ? { track: null, failure, retry } : { track: null, failure })), rateLimited: error instanceof RateLimited };
      }
    };
    return {
      lookup: (provider, uri) => {
        if (!this.supports(provider)) return Promise.resolve(NONE);
        const key = keyOf(provider, uri);
        let answer = answers.get(key);
        if (answer === undefined) {
          answer = ask(provider, [uri]).then((asked) => asked.answers[0]!);
          answers.set(key, answer);
        }
        return answer;
      },
      prefetch: async (asks) => {
        const byProvider = new Map<string, Set<string>>();
        for (const { provider, uri } of asks) {
          if (answers.has(keyOf(provider, uri)) || !this.supports(provider)) continue;
          byProvider.set(provider, (byProvider.get(provider) ?? new Set()).add(uri));
        }
        const calls: Promise<unknown>[] = [];
        for (const [provider, distinct] of byProvider) {
          const uris = [...distinct];
          for (let start = 0; start < uris.length; start += LOOKUP_BATCH) {
            const batch = uris.slice(start, start + LOOKUP_BATCH);
            const answered = ask(provider, batch);
            batch.forEach((uri, index) => answers.set(keyOf(provider, uri), answered.then((asked) => asked.answers[index]!)));
            // A batch that failed is forgotten: each of its links is asked on its own when its
            // song is matched, so one bad answer (a 503) costs one song, not fifty. Not when the
            // service asked to slow down: fifty more calls would not help it.
            calls.push(answered.then((asked) => {
              if (asked.answers[0]?.failure && !asked.rateLimited) for (const uri of batch) answers.delete(keyOf(provider, uri));
            }));
          }
        }
        await Promise.all(calls);
      },
    };
  }
}

function usable(account: AccountView): boolean {
  return account.status === 'connected';
}
