import { z } from 'zod';
import type { DemoEditOutcome, DemoPlaylistEditor } from '../../../test/fakes/kit/demo-edit.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';

/**
 * Demo mode's "change the source" (`POST /api/demo/playlists/change`): one song added to, removed
 * from or moved in one of the demo listener's playlists, made by the demo provider itself (its
 * version marker moves as on the real service), so the next sync run has something to do. Only the
 * owner's own demo accounts; the account's cached reads are dropped so every page sees the change.
 */

export type { DemoEditOutcome } from '../../../test/fakes/kit/demo-edit.ts';

export const demoChangeSchema = z.object({
  account_id: z.uuid(),
  playlist_id: z.string().min(1).max(500),
  change: z.enum(['add', 'remove', 'move']).describe('`add` appends a catalogue song the playlist lacks; `remove` takes out its last song; `move` moves its last song to the top'),
});

export type DemoChangeRequest = z.infer<typeof demoChangeSchema>;

export class DemoEditError extends Error {
  readonly code: 'not_found' | 'nothing_to_change';

  constructor(code: 'not_found' | 'nothing_to_change', message: string) {
    super(message);
    this.name = 'DemoEditError';
    this.code = code;
  }
}

export interface DemoEditsDependencies {
  readonly connections: Pick<ConnectionService, 'get'>;
  readonly playlists: Pick<PlaylistReadService, 'invalidate'>;
  /** The demo providers' editors by provider name. */
  readonly editors: ReadonlyMap<string, DemoPlaylistEditor>;
}

export class DemoEditService {
  readonly #deps: DemoEditsDependencies;

  constructor(deps: DemoEditsDependencies) {
    this.#deps = deps;
  }

  async change(ownerId: string, request: DemoChangeRequest): Promise<DemoEditOutcome & { account_id: string; provider: string }> {
    // Another owner's account is "not found" (ConnectionError unknown_account), like everywhere else.
    const account = await this.#deps.connections.get(ownerId, request.account_id);
    const editor = account.demo ? this.#deps.editors.get(account.provider) : undefined;
    if (!editor) throw new DemoEditError('not_found', 'Only playlists of a demo account can be changed from the demo.');
    let outcome: DemoEditOutcome;
    try {
      outcome = editor.demoEdit(request.playlist_id, request.change);
    } catch (error) {
      if (error instanceof Error && error.name === 'DemoEditRefused') throw new DemoEditError((error as Error & { code: DemoEditError['code'] }).code, error.message);
      throw error;
    }
    await this.#deps.playlists.invalidate(ownerId, account.id);
    return { ...outcome, account_id: account.id, provider: account.provider };
  }
}
