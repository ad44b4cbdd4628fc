import type { FakeAccountTokens, FakeProviderServer } from '../fake-provider.ts';
import type { DemoPlaylistEditor } from './demo-edit.ts';
import { demoLibrary, type SeedLibrary } from '../seed-catalog.ts';

/** The client id every fake accepts, the one demo mode's engine registers with them. */
export { DEMO_CLIENT_ID } from '../../../core/services/connections/provider-clients.ts';

/** The display name of every fake's demo user. */
export const DEMO_LISTENER = 'Demo Listener';

/** A part of the demo library: the named playlists and the first few favourites of each kind. */
export function pickDemoLibrary(pick: { playlists: readonly string[]; liked?: number; albums?: number; artists?: number }): SeedLibrary {
  const full = demoLibrary();
  const named = (name: string) => full.playlists!.find((playlist) => playlist.name === name)!;
  return {
    playlists: pick.playlists.map(named),
    ...(pick.liked !== undefined ? { likedTrackKeys: full.likedTrackKeys!.slice(0, pick.liked) } : {}),
    ...(pick.albums !== undefined ? { savedAlbumKeys: full.savedAlbumKeys!.slice(0, pick.albums) } : {}),
    ...(pick.artists !== undefined ? { followedArtistKeys: full.followedArtistKeys!.slice(0, pick.artists) } : {}),
  };
}

/** Creates the demo user and makes the fake's sign-in approve at once as that user. */
export function seedDemoListener(server: Pick<FakeProviderServer, 'createAccount' | 'setAuthorizeUser'>, library: SeedLibrary = demoLibrary()): FakeAccountTokens {
  const account = server.createAccount({ displayName: DEMO_LISTENER, library });
  server.setAuthorizeUser(account.userId);
  return account;
}

/**
 * `seedDemoListener` when `demo` is set, for fakes that name their demo user by `demoUserId`.
 * `editor`, given the demo user's id, makes the fake's demo playlist editor (`demoEdit`).
 */
export function withDemoListener<S extends FakeProviderServer & { readonly demoUserId: string | null }>(server: S, demo: boolean | undefined, library?: SeedLibrary, editor?: (demoUserId: string) => DemoPlaylistEditor): S {
  if (!demo) return server;
  const demoUserId = seedDemoListener(server, library).userId;
  return { ...server, demoUserId, ...(editor ? { demoEdit: editor(demoUserId).demoEdit } : {}) };
}
