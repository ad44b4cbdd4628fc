/**
 * Demo mode's "change the source" (`POST /api/demo/playlists/change`): one song added to, removed
 * from or moved in a demo playlist, as its (demo) provider would, so a sync run has something to
 * do. Pure: no I/O.
 */

export const DEMO_CHANGE_PATH = '/api/demo/playlists/change';

export type DemoChange = 'add' | 'remove' | 'move';

export const DEMO_CHANGES: readonly { change: DemoChange; label: string }[] = [
  { change: 'add', label: 'Add a song' },
  { change: 'remove', label: 'Remove a song' },
  { change: 'move', label: 'Move a song' },
];

export interface DemoChangeOutcome {
  readonly change: DemoChange;
  readonly title: string;
  readonly artist: string;
  /** 0-based; null for `add`. */
  readonly from: number | null;
  /** 0-based; null for `remove`. */
  readonly to: number | null;
  readonly trackCount: number;
}

export function demoChangeRequest(accountId: string, playlistId: string, change: DemoChange): Record<string, string> {
  return { account_id: accountId, playlist_id: playlistId, change };
}

const position = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

export function parseDemoChange(value: unknown): DemoChangeOutcome | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const body = value as Record<string, unknown>;
  const change = body['change'];
  if ((change !== 'add' && change !== 'remove' && change !== 'move') || typeof body['title'] !== 'string' || typeof body['artist'] !== 'string' || typeof body['track_count'] !== 'number') return undefined;
  return { change, title: body['title'], artist: body['artist'], from: position(body['from']), to: position(body['to']), trackCount: body['track_count'] };
}

/** What the page announces: the song, where it went, and what to do next. Positions are shown 1-based. */
export function demoChangeAnnouncement(outcome: DemoChangeOutcome, playlistName: string): string {
  const song = `“${outcome.title}” by ${outcome.artist}`;
  const where = `the demo source of “${playlistName}”`;
  switch (outcome.change) {
    case 'add':
      return `Demo: ${song} was added to ${where} at position ${(outcome.to ?? 0) + 1}. Run now to sync it.`;
    case 'remove':
      return `Demo: ${song} was removed from ${where} (it was at position ${(outcome.from ?? 0) + 1}). Add only keeps it on the target.`;
    case 'move':
      return `Demo: ${song} moved from position ${(outcome.from ?? 0) + 1} to ${(outcome.to ?? 0) + 1} in ${where}. Add only does not reorder the target.`;
  }
}
