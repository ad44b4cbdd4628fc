import { afterAll, beforeAll, expect } from 'vitest';
import { PluginError, type Manifest, type OperationName, type OperationResult } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import { PluginHost, type PluginBundle, type PluginCallContext, type PluginHostLogger } from '../../../../core/plugin-host/index.ts';
import { credentialAttachments } from '../../../../core/services/connections/credential-attachment.ts';
import type { FakeAccountTokens, FakeProviderServer } from '../../../fakes/fake-provider.ts';
import type { SeedLibrary } from '../../../fakes/seed-catalog.ts';
import { buildPluginBundle } from '../../support/build-plugin.ts';

/**
 * The harness of every provider plugin test: start the provider's fake, build and sign the
 * plugin's bundle, load it into a real sandboxed plugin host whose requests go to the fake, and
 * call operations as an account. Behaviour every provider must show belongs in the shared adapter
 * contract (`adapter-contract.ts`); a plugin test keeps what only its provider does.
 */

export interface PluginSessionOptions<F extends FakeProviderServer> {
  /** Starts the fake the plugin talks to. */
  readonly start: () => Promise<F>;
  /** The plugin's folder, `plugins/providers/<name>`. */
  readonly pluginDir: string;
  /** How an account's tokens reach the plugin (default: the manifest's own credential attachment). */
  readonly context?: (session: PluginSession<F>, tokens: FakeAccountTokens) => PluginCallContext;
  readonly logger?: PluginHostLogger;
}

export interface PluginSession<F extends FakeProviderServer> {
  readonly fake: F;
  readonly host: PluginHost;
  readonly bundle: PluginBundle;
  readonly manifest: Manifest;
  /** Everything the plugin handed back (results and error texts), to prove no credential is in any of it. */
  readonly seen: string[];
  /** Calls an operation as `tokens`' account (or with a context of the test's own). */
  call<N extends OperationName>(op: N, input: OperationCallInput<N>, as: FakeAccountTokens | PluginCallContext): Promise<OperationResult<N>>;
}

/** The credentials the manifest's first auth method attaches for an access token (plus provider-specific headers). */
export function attachedContext(manifest: Manifest, tokens: FakeAccountTokens, extraHeaders: Record<string, string> = {}): PluginCallContext {
  const method = manifest.provider!.auth[0]!;
  return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: credentialAttachments(manifest, method, { kind: 'token', access_token: tokens.accessToken, extra_headers: extraHeaders }) };
}

/** A bearer token on one origin, as the engine attaches it. */
export function bearerContext(origin: string, tokens: FakeAccountTokens): PluginCallContext {
  return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: [{ origin, headers: { authorization: `Bearer ${tokens.accessToken}` } }] };
}

/**
 * Opens a session before the file's tests (vitest `beforeAll`, registered first so the test's own
 * set-up sees it) and closes it after them. The returned object is filled in by then.
 */
export function usePluginSession<F extends FakeProviderServer>(options: PluginSessionOptions<F>): PluginSession<F> {
  const seen: string[] = [];
  const session = { seen } as { -readonly [K in keyof PluginSession<F>]: PluginSession<F>[K] };
  const contextOf = options.context ?? ((opened: PluginSession<F>, tokens: FakeAccountTokens) => attachedContext(opened.manifest, tokens));
  session.call = async (op, input, as) => {
    const context = 'accessToken' in as ? contextOf(session, as) : as;
    try {
      const result = await session.host.call(session.manifest.id, op, input, context);
      seen.push(JSON.stringify(result));
      return result;
    } catch (error) {
      seen.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      throw error;
    }
  };
  beforeAll(async () => {
    session.fake = await options.start();
    session.bundle = await buildPluginBundle(options.pluginDir);
    session.manifest = session.bundle.manifest;
    session.host = new PluginHost({ originOverrides: session.fake.originOverrides, ...(options.logger ? { logger: options.logger } : {}) });
    await session.host.start();
    await session.host.load(session.bundle);
  }, 120_000);
  afterAll(async () => {
    await session.host?.close();
    await session.fake?.close();
  });
  return session;
}

/** The account a plugin test reads and writes as ("Plugin Listener"), holding the test's library. */
export function pluginListener(fake: Pick<FakeProviderServer, 'createAccount'>, library: SeedLibrary): FakeAccountTokens {
  return fake.createAccount({ displayName: 'Plugin Listener', library });
}

/** The typed plugin error a call ends with (the test fails when it succeeds or throws something else). */
export async function failureOf(promise: Promise<unknown>, message?: string): Promise<PluginError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, message).toBeInstanceOf(PluginError);
  return error as PluginError;
}

/** Every page of a cursor-paged read, in order, up to `maxPages`. */
export async function readPages<P extends { next_cursor: string | null }>(read: (cursor: string | null) => Promise<P>, maxPages = 500): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | null = null;
  do {
    const page: P = await read(cursor);
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor && pages.length < maxPages);
  return pages;
}

/** Every item of a cursor-paged read, in order: pages until `next_cursor` is null; more than `maxPages` pages fail the read. */
export async function readAllItems<T>(read: (cursor: string | null) => Promise<{ readonly items: readonly T[]; readonly next_cursor: string | null }>, maxPages = 500): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const result: { readonly items: readonly T[]; readonly next_cursor: string | null } = await read(cursor);
    items.push(...result.items);
    cursor = result.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error(`paging never ended (more than ${maxPages} pages)`);
}
