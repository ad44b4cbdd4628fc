import { formatKit, type Manifest, type Playlist } from '@opl/plugin-sdk';
import { declaredBundleVersion, OPEN_PLAYLIST_SCHEMA_VERSION, openPlaylistBundleReaderSchema, playlistSchema } from '@opl/plugin-sdk/schemas';
import { z } from 'zod';
import { ConnectionError, type AccountView, type ConnectionService } from '../connections/connection.service.ts';
import { importCollectionIds, type ImportIssue, type ImportLimits, type ImportRecordService } from '../imports/index.ts';
import { unsupportedTargets } from '../migrations/migration-preflight.ts';
import { createMigrationSchema, IMPORT_SOURCE } from '../migrations/migration-request.ts';
import type { MigrationService } from '../migrations/migration.service.ts';
import { LIKED_PLAYLIST_ID, type PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { jsonDepthExceeds } from '@opl/plugin-sdk/schemas';
import { IMPORT_PREFIX, importPlaylistRef, providerPlaylistRef, readOpenPlaylistRef, REF_FORMS, type OpenPlaylistRef } from './open-playlist-ref.ts';

/**
 * The Open Playlist interchange API on top of the engine's own services: the owner's playlists and
 * single playlists in the universal model (provider reads are the cached playlist reads), imports
 * of posted Open Playlist JSON or of a provider playlist into an import record, and "export to a
 * target provider" as an ordinary migration job (same preflight, same 409 warnings).
 */

/** The `source_provider` of `POST /open-playlists/import` whose `provider_data` is Open Playlist JSON. */
export const OPEN_PLAYLIST_SOURCE = 'open_playlist';
/** Deeper JSON is refused before validation: real playlists nest a handful of levels. */
export const MAX_IMPORT_DEPTH = 32;
const MAX_ISSUES_SHOWN = 10;

export type OpenPlaylistErrorReason =
  | 'not_found'
  | 'invalid_document'
  | 'unsupported_schema_version'
  | 'too_deep'
  | 'too_many_playlists'
  | 'too_many_tracks'
  | 'no_playlists'
  | 'account_provider_mismatch'
  | 'unknown_target_provider'
  | 'unknown_provider'
  | 'target_cannot_receive'
  | 'no_target_account'
  | 'target_account_required';

/** A request refused for a reason the client can act on; the HTTP layer picks the status. */
export class OpenPlaylistError extends Error {
  readonly reason: OpenPlaylistErrorReason;
  readonly extensions: Record<string, unknown>;
  constructor(reason: OpenPlaylistErrorReason, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'OpenPlaylistError';
    this.reason = reason;
    this.extensions = extensions;
  }
}

export interface ImportRequest {
  source_provider: string;
  provider_data: Record<string, unknown>;
}

export interface ImportOutcome {
  importId: string;
  playlistCount: number;
  /** The first imported playlist, its id the interchange reference (`import:<id>:0`). */
  playlist: Playlist;
}

export interface ExportToTargetRequest {
  playlist_id: string;
  target_provider: string;
  target_account_id?: string | undefined;
  acknowledge_warnings?: boolean | undefined;
}

export interface ExportToTargetOutcome {
  provider: string;
  target_account_id: string;
  provider_playlist_url: string | null;
  status: 'queued';
  tracks_matched: number;
  tracks_unmatched: number;
  job_id: string;
}

export interface OpenPlaylistsDependencies {
  connections: Pick<ConnectionService, 'list' | 'get'>;
  playlists: Pick<PlaylistReadService, 'list' | 'read'>;
  records: Pick<ImportRecordService, 'get' | 'create'>;
  limits: Pick<ImportLimits, 'maxPlaylists' | 'maxTracks'>;
  migrations: Pick<MigrationService, 'create'>;
  /** The loaded provider plugins (the plugin catalogue): which providers exist and what they can write. */
  providers: { providerPlugin(provider: string): Manifest | undefined; manifests(): Manifest[] };
}

const providerImportSchema = z
  .object({
    account_id: z.uuid(),
    playlist_id: z.string().trim().min(1).max(500),
  })
  .strict();

/** A path segment or field quoted in a message, cut between characters (never inside a surrogate pair). */
function quoted(raw: string): string {
  return `"${formatKit.boundedText(raw, 120).value}"`;
}

/** A segment that is neither the owner nor a reference, with what is wrong with it. */
function notFound(raw: string, problem: string): OpenPlaylistError {
  return new OpenPlaylistError('not_found', `${quoted(raw)} ${problem}.`);
}

/** The owner's reference (`me`) where one playlist is needed. */
function notAPlaylist(raw: string): OpenPlaylistError {
  return new OpenPlaylistError(
    'not_found',
    `${quoted(raw)} names the owner, not one playlist: use a playlist reference of the form ${REF_FORMS} (GET /open-playlists/me lists them).`,
  );
}

function describeIssues(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => ({ path: issue.path.join('.') || '(document)', message: issue.message }));
  const more = error.issues.length > MAX_ISSUES_SHOWN ? ` (and ${error.issues.length - MAX_ISSUES_SHOWN} more)` : '';
  return { message: issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') + more, issues };
}

export class OpenPlaylistsService {
  readonly #deps: OpenPlaylistsDependencies;

  constructor(deps: OpenPlaylistsDependencies) {
    this.#deps = deps;
  }

  /** The reading of a path segment, or a `not_found` error. */
  resolve(ownerId: string, raw: string): OpenPlaylistRef {
    const reading = readOpenPlaylistRef(raw, ownerId);
    if (!reading.ref) throw notFound(raw, reading.problem);
    return reading.ref;
  }

  /**
   * The owner's playlists on every connected account (optionally one provider's), liked songs
   * first per account. Listings carry `track_count` and no tracks: the id of each entry reads it
   * whole. Accounts that need reconnecting are left out rather than failing the whole list.
   */
  async listOwned(ownerId: string, options: { provider?: string | undefined; refresh?: boolean } = {}): Promise<Playlist[]> {
    const listed = await this.#deps.connections.list(ownerId, options.provider ?? null);
    if (options.provider !== undefined && listed.length === 0 && this.#deps.providers.providerPlugin(options.provider) === undefined) {
      // A misspelt provider would otherwise answer an empty list, as if it had no playlists.
      const known = this.#deps.providers
        .manifests()
        .flatMap((manifest) => (manifest.provider ? [manifest.provider.name] : []))
        .sort();
      throw new OpenPlaylistError('unknown_provider', `No provider named ${quoted(options.provider)} is loaded on this instance; provider can be ${known.length > 0 ? known.join(', ') : '(none is loaded)'}.`, { providers: known });
    }
    const accounts = listed.filter((account) => account.status === 'connected');
    const playlists: Playlist[] = [];
    for (const account of accounts) {
      let view;
      try {
        view = await this.#deps.playlists.list(ownerId, account.id, options.refresh ?? false);
      } catch (error) {
        // The provider refused the connection while listing: the account is now marked for
        // reconnection, and is left out like the ones already marked, rather than failing the list.
        if (error instanceof ConnectionError && error.code === 'auth_expired') continue;
        throw error;
      }
      for (const summary of view.playlists) {
        if (summary.id === null) continue;
        playlists.push({ ...summary, id: providerPlaylistRef(account.provider, account.id, summary.id), tracks: [] });
      }
    }
    return playlists;
  }

  /** One playlist with every track, its id the reference that reads it (as the owner list spells it). */
  async get(ownerId: string, raw: string, refresh = false): Promise<Playlist> {
    const ref = this.resolve(ownerId, raw);
    if (ref.kind === 'owner') throw notAPlaylist(raw);
    if (ref.kind === 'provider') {
      await this.#referencedAccount(ownerId, ref, raw);
      const { playlist } = await this.#deps.playlists.read(ownerId, ref.accountId, ref.playlistId, refresh);
      // The reference as the owner list writes it (lower-case account id), however the path spelled it.
      return { ...playlist, id: providerPlaylistRef(ref.provider, ref.accountId, ref.playlistId) };
    }
    const { record, playlist } = await this.#referencedImport(ownerId, ref);
    return { ...playlist, id: importPlaylistRef(record.id, ref.index), track_count: playlist.tracks.length };
  }

  /**
   * Brings playlists in as an import record: posted Open Playlist JSON (a bundle v1, or one
   * universal Playlist), or a snapshot of a connected account's playlist. The record behaves as
   * any import: it expires, and it can be exported or migrated.
   */
  async import(ownerId: string, request: ImportRequest): Promise<ImportOutcome> {
    let playlists: Playlist[];
    let issues: ImportIssue[] = [];
    let name: string | null;
    let format: string | null;
    if (request.source_provider === OPEN_PLAYLIST_SOURCE) {
      ({ playlists, issues } = this.#readDocument(request.provider_data));
      name = playlists[0]?.name ?? null;
      format = 'json';
    } else {
      const parsed = providerImportSchema.safeParse(request.provider_data);
      if (!parsed.success) {
        const { message, issues } = describeIssues(parsed.error);
        throw new OpenPlaylistError('invalid_document', `provider_data for a ${request.source_provider.slice(0, 40)} import names a connected account and one of its playlists ({"account_id", "playlist_id"}): ${message}`, { issues });
      }
      const account = await this.#accountOf(ownerId, parsed.data.account_id, request.source_provider);
      const { playlist } = await this.#deps.playlists.read(ownerId, account.id, parsed.data.playlist_id, false);
      playlists = [playlist];
      name = `${playlist.name} (${account.provider_display_name})`;
      format = null;
    }
    this.#checkLimits(playlists);
    const record = await this.#deps.records.create({ ownerId, kind: 'text', name, format, playlists, issues });
    const first = record.playlists[0]!;
    return { importId: record.id, playlistCount: record.playlists.length, playlist: { ...first, id: importPlaylistRef(record.id, 0), track_count: first.tracks.length } };
  }

  /**
   * Pushes one playlist to a target provider: a migration job of that playlist into the target
   * account (the only connected account of that provider, unless `target_account_id` names one).
   * Preflight warnings refuse it (409) until acknowledged, as for `POST /api/migrations`.
   */
  async exportToTarget(ownerId: string, request: ExportToTargetRequest): Promise<ExportToTargetOutcome> {
    // The source first: a reference to nothing is a 404 whatever the target, so the client hears
    // about the real problem before being asked to connect anything.
    const ref = this.resolve(ownerId, request.playlist_id);
    if (ref.kind === 'owner') throw notAPlaylist(request.playlist_id);
    let source: { source_provider: string; source_account_id: string; collectionId: string; kind: 'PLAYLIST' | 'LIKED_TRACKS' };
    if (ref.kind === 'provider') {
      await this.#referencedAccount(ownerId, ref, request.playlist_id);
      // The read the migration makes next (cached): a playlist that does not exist is a 404 here.
      const { playlist } = await this.#deps.playlists.read(ownerId, ref.accountId, ref.playlistId, false);
      source = { source_provider: ref.provider, source_account_id: ref.accountId, collectionId: ref.playlistId, kind: ref.playlistId === LIKED_PLAYLIST_ID || playlist.kind === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST' };
    } else {
      const { record, playlist } = await this.#referencedImport(ownerId, ref);
      // The ref names the playlist by position; the migration names it by its collection id at that position.
      source = { source_provider: IMPORT_SOURCE, source_account_id: record.id, collectionId: importCollectionIds(record.playlists)[ref.index]!, kind: playlist.kind === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST' };
    }
    this.#checkTargetProvider(request.target_provider, source.kind);
    const target = await this.#targetAccount(ownerId, request.target_provider, request.target_account_id);
    const job = await this.#deps.migrations.create(
      ownerId,
      createMigrationSchema.parse({
        source_provider: source.source_provider,
        source_account_id: source.source_account_id,
        target_provider: target.provider,
        target_account_id: target.id,
        selection: { playlist_ids: [source.collectionId] },
        acknowledge_warnings: request.acknowledge_warnings ?? false,
      }),
    );
    return { provider: target.provider, target_account_id: target.id, provider_playlist_url: null, status: 'queued', tracks_matched: 0, tracks_unmatched: 0, job_id: job.id };
  }

  /** The playlists of posted Open Playlist JSON, and what the import record should say about reading it. */
  #readDocument(data: Record<string, unknown>): { playlists: Playlist[]; issues: ImportIssue[] } {
    const issues: ImportIssue[] = [];
    if (jsonDepthExceeds(data, MAX_IMPORT_DEPTH)) {
      throw new OpenPlaylistError('too_deep', `provider_data nests deeper than ${MAX_IMPORT_DEPTH} levels; an Open Playlist document never does.`, { max_depth: MAX_IMPORT_DEPTH });
    }
    if ('schema_version' in data || 'playlists' in data || '$schema' in data) {
      if (typeof data['$schema'] === 'string' && data['$schema'].includes('export-manifest')) {
        throw new OpenPlaylistError('invalid_document', 'provider_data is the manifest.json of an export archive, not a bundle: post open-playlist-bundle.json from the archive instead.');
      }
      // Read as the json format plugin reads a file: a declared version must be 1; none at all is read as 1, with a warning.
      const version = declaredBundleVersion(data);
      if (version !== undefined && version !== OPEN_PLAYLIST_SCHEMA_VERSION) {
        throw new OpenPlaylistError(
          'unsupported_schema_version',
          `This engine reads Open Playlist bundles of schema_version ${OPEN_PLAYLIST_SCHEMA_VERSION} only; the document says ${JSON.stringify(version).slice(0, 40)}.`,
          { supported_schema_versions: [OPEN_PLAYLIST_SCHEMA_VERSION] },
        );
      }
      if (version === undefined) issues.push({ line: null, column: null, code: 'missing_schema_version', message: `the bundle has no schema_version; it was read as version ${OPEN_PLAYLIST_SCHEMA_VERSION}`, severity: 'warning' });
      const bundle = openPlaylistBundleReaderSchema.safeParse(data);
      if (!bundle.success) {
        const described = describeIssues(bundle.error);
        throw new OpenPlaylistError('invalid_document', `provider_data is not a valid Open Playlist bundle v1: ${described.message}`, { issues: described.issues });
      }
      if (bundle.data.playlists.length === 0) throw new OpenPlaylistError('no_playlists', 'The bundle holds no playlist, so there is nothing to import.');
      return { playlists: bundle.data.playlists, issues };
    }
    const playlist = playlistSchema.safeParse(data);
    if (!playlist.success) {
      const { message, issues } = describeIssues(playlist.error);
      throw new OpenPlaylistError('invalid_document', `provider_data is neither an Open Playlist bundle v1 nor a universal Playlist: ${message}`, { issues });
    }
    return { playlists: [playlist.data], issues };
  }

  #checkLimits(playlists: readonly Playlist[]): void {
    const { maxPlaylists, maxTracks } = this.#deps.limits;
    if (playlists.length > maxPlaylists) {
      throw new OpenPlaylistError('too_many_playlists', `The import holds ${playlists.length} playlists; at most ${maxPlaylists} are accepted (OPL_IMPORT_MAX_PLAYLISTS).`, { max_playlists: maxPlaylists });
    }
    const tracks = playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    if (tracks > maxTracks) {
      throw new OpenPlaylistError('too_many_tracks', `The import holds ${tracks} tracks; at most ${maxTracks} are accepted (OPL_IMPORT_MAX_TRACKS).`, { max_tracks: maxTracks });
    }
  }

  /**
   * The connected account a request field names (`provider_data.account_id`, `target_account_id`),
   * which must be of the provider the request names next to it (422 otherwise: the two fields disagree).
   */
  async #accountOf(ownerId: string, accountId: string, provider: string): Promise<AccountView> {
    const account = await this.#deps.connections.get(ownerId, accountId);
    if (account.provider !== provider) {
      throw new OpenPlaylistError('account_provider_mismatch', `Account ${accountId} is a ${account.provider} account, not ${provider.slice(0, 40)}.`, { account_provider: account.provider });
    }
    return account;
  }

  /**
   * The connected account a provider reference names. A reference whose provider is not its
   * account's provider names no playlist at all: not found, like an unknown account.
   */
  async #referencedAccount(ownerId: string, ref: Extract<OpenPlaylistRef, { kind: 'provider' }>, raw: string): Promise<AccountView> {
    let account: AccountView;
    try {
      account = await this.#deps.connections.get(ownerId, ref.accountId);
    } catch (error) {
      if (error instanceof ConnectionError && error.code === 'unknown_account') {
        throw notFound(raw, `names the ${ref.provider} account ${ref.accountId}, but no account with that id is connected for this owner (GET /open-playlists/me lists the references of the connected accounts)`);
      }
      throw error;
    }
    if (account.provider !== ref.provider) {
      throw new OpenPlaylistError(
        'not_found',
        `${quoted(raw)} names no playlist: account ${account.id} is a ${account.provider} account, not ${ref.provider}. Its playlists are referenced as ${providerPlaylistRef(account.provider, account.id, '<playlist id>')}.`,
        { reason: 'account_provider_mismatch', account_provider: account.provider },
      );
    }
    return account;
  }

  /** The import record and playlist an import reference names. */
  async #referencedImport(ownerId: string, ref: Extract<OpenPlaylistRef, { kind: 'import' }>): Promise<{ record: Awaited<ReturnType<ImportRecordService['get']>>; playlist: Playlist }> {
    const record = await this.#deps.records.get(ownerId, ref.importId);
    const playlist = record.playlists[ref.index];
    if (!playlist) throw new OpenPlaylistError('not_found', `Import ${ref.importId} has ${record.playlists.length} playlist(s); index ${ref.index} does not exist (indexes start at 0).`);
    return { record, playlist };
  }

  /**
   * Whether `target_provider` is a loaded provider that can receive this kind of collection: an
   * unknown name (or `import`, which names import records, never a target) and a provider that
   * cannot be written to are refused here, before any account is looked for.
   */
  #checkTargetProvider(provider: string, kind: 'PLAYLIST' | 'LIKED_TRACKS'): void {
    const name = provider.slice(0, 40);
    const refusals = (target: NonNullable<Manifest['provider']>) => unsupportedTargets({ collections: [{ kind }], albums: [], artists: [] }, { displayName: target.display_name, capabilities: target.capabilities });
    const manifest = this.#deps.providers.providerPlugin(provider);
    if (!manifest?.provider) {
      const receivers = this.#deps.providers
        .manifests()
        .flatMap((candidate) => (candidate.provider && refusals(candidate.provider).length === 0 ? [candidate.provider.name] : []))
        .sort();
      const what =
        provider === IMPORT_PREFIX || provider === OPEN_PLAYLIST_SOURCE
          ? `"${name}" is not a provider: import records and Open Playlist JSON can be exported from (as playlist_id), never to; for a file, use POST /api/exports.`
          : `No provider named "${name}" is loaded on this instance.`;
      const choice = receivers.length > 0 ? `target_provider can be ${receivers.join(', ')}.` : 'No provider loaded here can receive it.';
      throw new OpenPlaylistError('unknown_target_provider', `${what} ${choice}`, { target_providers: receivers });
    }
    const refused = refusals(manifest.provider);
    if (refused.length > 0) throw new OpenPlaylistError('target_cannot_receive', refused.map((entry) => entry.message).join(' '), { unsupported: refused });
  }

  async #targetAccount(ownerId: string, provider: string, accountId: string | undefined): Promise<AccountView> {
    if (accountId !== undefined) return this.#accountOf(ownerId, accountId, provider);
    const accounts = (await this.#deps.connections.list(ownerId, provider)).filter((account) => account.status === 'connected');
    if (accounts.length === 1) return accounts[0]!;
    if (accounts.length === 0) {
      throw new OpenPlaylistError('no_target_account', `No connected ${provider.slice(0, 40)} account can receive the playlist: connect one first.`, {
        action: { type: 'connect_target_account', provider },
      });
    }
    throw new OpenPlaylistError('target_account_required', `${accounts.length} ${provider.slice(0, 40)} accounts are connected: name the one to export to with target_account_id.`, {
      target_account_ids: accounts.map((account) => account.id),
    });
  }
}
