import type { Config } from '../../config/index.ts';
import { EngineRequestError, engineUrlOption, parseCommandLine, plural, UUID, withEngine, type CommandIo } from '../engine-command/index.ts';
import { terminalText } from '../terminal-text.ts';

/**
 * `opl snapshot rewind`: a playlist put back, in place, as it was at a time (or in a snapshot) —
 * the preview first (GET /api/snapshots/rewind/preview), then the rewind (POST /api/snapshots/rewind)
 * once its removals are confirmed.
 */

export const SNAPSHOT_REWIND_USAGE = `Usage:
  opl snapshot rewind --account <account-id> --playlist <playlist-id> (--as-of <ISO time> | --snapshot <snapshot-id>)
                      [--dry-run] [--confirm-removals <n>] [--json] [--url <engine>]

  rewind     make the live playlist exactly what the newest snapshot taken at or before --as-of (or
             --snapshot) holds: the same playlist, by id, no matching. It shows what is removed,
             moved and added; a rewind that removes songs needs --confirm-removals with their number.
             An automatic snapshot of the playlist as it is now is taken before anything is written.
`;

class RewindUsageError extends Error {}
const usage = (message: string) => new RewindUsageError(message);

interface Listed {
  title: string;
  artist: string;
}
interface PreviewJson {
  snapshot: { id: string; created_at: string };
  playlist: { name: string; item_count: number };
  method: 'none' | 'edit' | 'replace';
  counts: { remove: number; move: number; add: number; result: number; unrestorable: number };
  remove: (Listed & { positions: number[] })[];
  move: (Listed & { from: number; to: number })[];
  add: (Listed & { position: number })[];
  unrestorable: Listed[];
}
interface RewindJson {
  status: 'unchanged' | 'completed';
  rewind_id: string | null;
  automatic_snapshot_id: string | null;
  writes: { calls: number };
  verified: boolean;
}

const song = (track: Listed) => terminalText(`${track.artist} – ${track.title}`);

export function describeRewind(preview: PreviewJson): string[] {
  const { counts } = preview;
  const lines = [`${terminalText(preview.playlist.name)} (${plural(preview.playlist.item_count, 'song')} now) as in snapshot ${preview.snapshot.id} (${preview.snapshot.created_at}):`];
  if (preview.method === 'none') return [...lines, '  already as it was: nothing to do'];
  lines.push(`  ${counts.remove} removed, ${counts.move} moved, ${counts.add} added → ${plural(counts.result, 'song')}${preview.method === 'replace' ? ' (by one replacement of the whole list)' : ''}`);
  for (const entry of preview.remove) lines.push(`  - ${entry.positions.map((position) => position + 1).join(', ')}. ${song(entry)}`);
  for (const entry of preview.move) lines.push(`  ~ ${entry.from + 1} → ${entry.to + 1}. ${song(entry)}`);
  for (const entry of preview.add) lines.push(`  + ${entry.position + 1}. ${song(entry)}`);
  for (const entry of preview.unrestorable) lines.push(`  ! cannot be put back (no link on this service): ${song(entry)}`);
  return lines;
}

export async function snapshotRewindCommand(args: readonly string[], config: Config, io: CommandIo): Promise<number> {
  let target: Record<string, string>;
  let dryRun: boolean;
  let confirm: number | null;
  let json: boolean;
  let url: string | null;
  try {
    const values = parseCommandLine(
      args,
      { account: { type: 'string' }, playlist: { type: 'string' }, 'as-of': { type: 'string' }, snapshot: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'confirm-removals': { type: 'string' }, json: { type: 'boolean' }, url: { type: 'string' } },
      usage,
    );
    if (!values.account || !UUID.test(values.account)) throw usage('--account <account-id> is required (the connected account that holds the playlist)');
    if (!values.playlist) throw usage('--playlist <playlist-id> is required');
    if ((values['as-of'] === undefined) === (values.snapshot === undefined)) throw usage('name exactly one of --as-of <ISO time> and --snapshot <snapshot-id>');
    if (values.snapshot !== undefined && !UUID.test(values.snapshot)) throw usage('--snapshot takes a snapshot id');
    if (values['as-of'] !== undefined && Number.isNaN(Date.parse(values['as-of']))) throw usage('--as-of takes an ISO 8601 time, e.g. 2026-11-01T12:00:00Z');
    if (values['confirm-removals'] !== undefined && !/^\d{1,7}$/.test(values['confirm-removals'])) throw usage('--confirm-removals takes the number of songs the preview removes');
    target = { account_id: values.account, playlist_id: values.playlist, ...(values.snapshot ? { snapshot_id: values.snapshot } : { at: new Date(values['as-of']!).toISOString() }) };
    dryRun = values['dry-run'] === true;
    confirm = values['confirm-removals'] === undefined ? null : Number(values['confirm-removals']);
    json = values.json === true;
    url = engineUrlOption(values.url, usage);
  } catch (error) {
    if (!(error instanceof RewindUsageError)) throw error;
    io.stderr.write(`opl snapshot rewind: ${error.message}\n\n${SNAPSHOT_REWIND_USAGE}`);
    return 64;
  }
  try {
    return await withEngine(config, url, io, async (client) => {
      const preview = (await client.request('GET', `/api/snapshots/rewind/preview?${new URLSearchParams(target)}`)).json as PreviewJson;
      if (dryRun || preview.method === 'none') {
        io.stdout.write(json ? `${JSON.stringify(preview)}\n` : `${describeRewind(preview).join('\n')}\n`);
        return 0;
      }
      if (preview.counts.remove > (confirm ?? 0)) {
        io.stdout.write(json ? `${JSON.stringify(preview)}\n` : `${describeRewind(preview).join('\n')}\n`);
        io.stderr.write(`opl snapshot rewind: this removes ${plural(preview.counts.remove, 'song')} from the playlist; run again with --confirm-removals ${preview.counts.remove} to go ahead. Nothing was changed.\n`);
        return 1;
      }
      const result = (await client.request('POST', '/api/snapshots/rewind', { ...target, confirm_removals: confirm ?? 0 })).json as RewindJson;
      if (json) io.stdout.write(`${JSON.stringify(result)}\n`);
      else {
        io.stdout.write(`${describeRewind(preview).join('\n')}\n`);
        io.stdout.write(result.status === 'unchanged' ? 'Already as it was: nothing written.\n' : `Rewound (${plural(result.writes.calls, 'provider write')}, verified by reading the playlist again); the playlist as it was before: snapshot ${result.automatic_snapshot_id}.\n`);
      }
      return 0;
    });
  } catch (error) {
    if (!(error instanceof EngineRequestError)) throw error;
    io.stderr.write(`opl snapshot rewind: ${terminalText(error.message)}\n`);
    return 1;
  }
}
