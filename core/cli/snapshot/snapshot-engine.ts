import type { Config } from '../../config/index.ts';
import { EngineRequestError, engineUrlOption, parseCommandLine, plural, UUID, withEngine, type CommandIo } from '../engine-command/index.ts';
import { terminalText } from '../terminal-text.ts';

/**
 * `opl snapshot create|list|restore`: library snapshots through a running engine's API (the same
 * endpoints as the web UI). `opl snapshot verify` needs no engine (snapshot-verify.ts).
 */

export const SNAPSHOT_ENGINE_USAGE = `Usage:
  opl snapshot list [--url <engine>]
  opl snapshot create --profile <profile-id> [--wait] [--url <engine>]
  opl snapshot restore <snapshot-id> --target <provider>:<account-id> [--collection <restore-id>]... [--acknowledge-warnings] [--url <engine>]

  list       the snapshots: status, size, counts, partial failures, verification
  create     take a snapshot of a profile now; --wait follows it until it is done
  restore    restore collections of a snapshot to a connected account as a migration (all readable
             collections unless --collection names some: the restore ids \`opl snapshot list\` shows)

Exit codes: 0 done (a partial snapshot too), 1 refused or failed, 64 usage error.
`;

class SnapshotUsageError extends Error {}
const usage = (message: string) => new SnapshotUsageError(message);

interface SnapshotJson {
  id: string;
  status: string;
  origin: string;
  archive_bytes: number | null;
  counts: { collections?: number; items?: number; partial_collections?: number; failed_collections?: number };
  partial_failures: { member: string; source_collection_id: string | null; failure: { code: string; message: string } }[];
  collections: { restore_id: string; name: string; status: string; item_count: number; kind: string }[];
  verification_reason: string | null;
  error: string | null;
  created_at: string;
}

function describe(snapshot: SnapshotJson): string[] {
  const counts = snapshot.counts;
  const size = snapshot.archive_bytes === null ? '' : `, ${snapshot.archive_bytes} bytes`;
  const verified = snapshot.verification_reason ? `, verification failed (${snapshot.verification_reason})` : '';
  const lines = [`${snapshot.id}  ${snapshot.status} (${snapshot.origin}) ${snapshot.created_at}: ${plural(counts.collections ?? 0, 'collection')}, ${plural(counts.items ?? 0, 'item')}${size}${verified}`];
  for (const collection of snapshot.collections) lines.push(`  ${terminalText(collection.restore_id)}  ${terminalText(collection.name)}: ${collection.status}, ${plural(collection.item_count, 'item')}`);
  for (const failure of snapshot.partial_failures) lines.push(`  ! ${failure.member}: ${failure.failure.code} — ${terminalText(failure.failure.message)}`);
  if (snapshot.error) lines.push(`  error: ${terminalText(snapshot.error)}`);
  return lines;
}

export async function snapshotEngineCommand(sub: 'list' | 'create' | 'restore', args: readonly string[], config: Config, io: CommandIo, pollMs = 1_000): Promise<number> {
  let run: () => Promise<number>;
  try {
    if (sub === 'list') {
      const values = parseCommandLine(args, { url: { type: 'string' } }, usage);
      const url = engineUrlOption(values.url, usage);
      run = () =>
        withEngine(config, url, io, async (client) => {
          const { json } = await client.request('GET', '/api/snapshots');
          const snapshots = (json as { snapshots: SnapshotJson[] }).snapshots;
          io.stdout.write(snapshots.length === 0 ? 'No snapshots yet.\n' : `${snapshots.flatMap(describe).join('\n')}\n`);
          return 0;
        });
    } else if (sub === 'create') {
      const values = parseCommandLine(args, { profile: { type: 'string' }, wait: { type: 'boolean' }, url: { type: 'string' } }, usage);
      if (!values.profile || !UUID.test(values.profile)) throw usage('--profile <profile-id> is required (GET /api/snapshots/profiles lists them)');
      const url = engineUrlOption(values.url, usage);
      const profile = values.profile;
      run = () =>
        withEngine(config, url, io, async (client) => {
          let snapshot = (await client.request('POST', '/api/snapshots', { profile_id: profile }, [202])).json as SnapshotJson;
          io.stderr.write(`snapshot ${snapshot.id} queued\n`);
          if (!values.wait) {
            io.stdout.write(`${snapshot.id}\n`);
            return 0;
          }
          while (snapshot.status === 'queued' || snapshot.status === 'running') {
            await new Promise((resolve) => setTimeout(resolve, pollMs));
            snapshot = (await client.request('GET', `/api/snapshots/${snapshot.id}`)).json as SnapshotJson;
          }
          io.stdout.write(`${describe(snapshot).join('\n')}\n`);
          return snapshot.status === 'failed' ? 1 : 0;
        });
    } else {
      const values = parseCommandLine(
        args.slice(1),
        { target: { type: 'string' }, collection: { type: 'string', multiple: true }, 'acknowledge-warnings': { type: 'boolean' }, url: { type: 'string' } },
        usage,
      );
      const snapshotId = args[0];
      if (!snapshotId || !UUID.test(snapshotId)) throw usage('name the snapshot to restore: opl snapshot restore <snapshot-id> --target <provider>:<account-id>');
      const target = /^([a-z0-9_-]{1,40}):([0-9a-f-]{36})$/i.exec(values.target ?? '');
      if (!target) throw usage('--target <provider>:<account-id> is required (the connected account to restore to)');
      const url = engineUrlOption(values.url, usage);
      run = () =>
        withEngine(config, url, io, async (client) => {
          const snapshot = (await client.request('GET', `/api/snapshots/${snapshotId}`)).json as SnapshotJson;
          const wanted = values.collection ?? snapshot.collections.filter((collection) => collection.status !== 'failed' && collection.kind !== 'saved_albums' && collection.kind !== 'followed_artists').map((collection) => collection.restore_id);
          const { json } = await client.request(
            'POST',
            '/api/migrations',
            { source_provider: 'snapshot', source_account_id: snapshotId, source_snapshot_id: snapshotId, target_provider: target[1], target_account_id: target[2], selection: { playlist_ids: wanted }, acknowledge_warnings: values['acknowledge-warnings'] === true },
            [202],
          );
          const job = json as { id: string };
          io.stderr.write(`restoring ${plural(wanted.length, 'collection')} of snapshot ${snapshotId} as migration ${job.id} (follow it with opl migrate --follow ${job.id} or on the History page)\n`);
          io.stdout.write(`${job.id}\n`);
          return 0;
        });
    }
  } catch (error) {
    if (!(error instanceof SnapshotUsageError)) throw error;
    io.stderr.write(`opl snapshot ${sub}: ${error.message}\n\n${SNAPSHOT_ENGINE_USAGE}`);
    return 64;
  }
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    const warnings = Array.isArray(error.problem['warnings']) ? (error.problem['warnings'] as { message?: string }[]).map((warning) => `  - ${terminalText(String(warning.message ?? ''))}`) : [];
    const hint = error.code === 'migration_warnings' ? '  (run again with --acknowledge-warnings to go ahead)\n' : '';
    io.stderr.write(`opl snapshot ${sub}: ${terminalText(error.message)}\n${warnings.length > 0 ? `${warnings.join('\n')}\n` : ''}${hint}`);
    return 1;
  }
}
