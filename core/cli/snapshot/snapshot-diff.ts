import type { Config } from '../../config/index.ts';
import { EngineRequestError, engineUrlOption, parseCommandLine, UUID, withEngine, type CommandIo } from '../engine-command/index.ts';
import { terminalText } from '../terminal-text.ts';

/** `opl snapshot diff`: what changed, track by track, since a snapshot (GET /api/snapshots/{id}/diff). */

export const SNAPSHOT_DIFF_USAGE = `Usage:
  opl snapshot diff <snapshot-id> --against <snapshot-id | live> [--collection <restore-id>] [--account <account-id>] [--limit <n>] [--json] [--url <engine>]

  diff       songs added, removed and moved from the snapshot to a newer one, or to the live playlist
             (live needs --collection: one playlist is read again from its provider; --account names
             the account to read when the engine cannot tell)
`;

class DiffUsageError extends Error {}
const usage = (message: string) => new DiffUsageError(message);

interface DiffTrackJson {
  title: string;
  artist: string;
}
interface DiffJson {
  from: { snapshot_id: string; created_at: string };
  to: { snapshot_id: string | null; created_at: string };
  collections: {
    name: string;
    status: string;
    counts: { added: number; removed: number; moved: number; unchanged: number };
    added: { position: number; track: DiffTrackJson }[];
    removed: { position: number; track: DiffTrackJson }[];
    moved: { from: number; to: number; track: DiffTrackJson }[];
    truncated: boolean;
  }[];
}

const song = (track: DiffTrackJson) => terminalText(`${track.artist} – ${track.title}`);

/** The diff as lines: one head line per collection, then its changes with 1-based positions. */
export function describeDiff(diff: DiffJson): string[] {
  const lines = [`from snapshot ${diff.from.snapshot_id} (${diff.from.created_at}) to ${diff.to.snapshot_id ? `snapshot ${diff.to.snapshot_id}` : 'the live playlist'} (${diff.to.created_at})`];
  for (const collection of diff.collections) {
    const { added, removed, moved, unchanged } = collection.counts;
    const summary = collection.status === 'changed' || collection.status === 'unchanged' ? `${added} added, ${removed} removed, ${moved} moved, ${unchanged} in place` : collection.status;
    lines.push(`${terminalText(collection.name)}: ${summary}`);
    for (const entry of collection.added) lines.push(`  + ${entry.position + 1}. ${song(entry.track)}`);
    for (const entry of collection.removed) lines.push(`  - ${entry.position + 1}. ${song(entry.track)}`);
    for (const entry of collection.moved) lines.push(`  ~ ${entry.from + 1} → ${entry.to + 1}. ${song(entry.track)}`);
    if (collection.truncated) lines.push('  … (more; raise --limit)');
  }
  return lines;
}

export async function snapshotDiffCommand(args: readonly string[], config: Config, io: CommandIo): Promise<number> {
  let path: string;
  let json: boolean;
  let url: string | null;
  try {
    const values = parseCommandLine(args.slice(1), { against: { type: 'string' }, collection: { type: 'string' }, account: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, url: { type: 'string' } }, usage);
    const snapshotId = args[0];
    if (!snapshotId || !UUID.test(snapshotId)) throw usage('name the snapshot: opl snapshot diff <snapshot-id> --against <snapshot-id | live>');
    const against = values.against ?? '';
    if (against !== 'live' && !UUID.test(against)) throw usage('--against <snapshot-id | live> is required');
    if (against === 'live' && !values.collection) throw usage('--against live compares one playlist: name it with --collection <restore-id> (opl snapshot list shows them)');
    if (values.account !== undefined && !UUID.test(values.account)) throw usage('--account takes an account id');
    if (values.limit !== undefined && !/^[1-9]\d{0,3}$/.test(values.limit)) throw usage('--limit takes a number from 1 to 5000');
    const query = new URLSearchParams({ against });
    if (values.account) query.set('account_id', values.account);
    if (values.limit) query.set('limit', values.limit);
    path = values.collection ? `/api/snapshots/${snapshotId}/collections/${encodeURIComponent(values.collection)}/diff?${query}` : `/api/snapshots/${snapshotId}/diff?${query}`;
    json = values.json === true;
    url = engineUrlOption(values.url, usage);
  } catch (error) {
    if (!(error instanceof DiffUsageError)) throw error;
    io.stderr.write(`opl snapshot diff: ${error.message}\n\n${SNAPSHOT_DIFF_USAGE}`);
    return 64;
  }
  try {
    return await withEngine(config, url, io, async (client) => {
      const diff = (await client.request('GET', path)).json as DiffJson;
      io.stdout.write(json ? `${JSON.stringify(diff)}\n` : `${describeDiff(diff).join('\n')}\n`);
      return 0;
    });
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    io.stderr.write(`opl snapshot diff: ${terminalText(error.message)}\n`);
    return 1;
  }
}
