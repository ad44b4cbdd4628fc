import { describe, expect, it } from 'vitest';
import { importPlaylistRef, jsonDepthExceeds, parseOpenPlaylistRef, providerPlaylistRef } from '../../../../core/services/open-playlists/index.ts';

const ACCOUNT = '2f1c8a52-5d0e-4b8e-9a57-3c1d2e4f5a6b';

describe('the shared {userId}/{playlistId} path segment', () => {
  it('reads `me` and the owner’s own id as the owner, and nothing else as a user', () => {
    expect(parseOpenPlaylistRef('me', 'local')).toEqual({ kind: 'owner' });
    expect(parseOpenPlaylistRef('local', 'local')).toEqual({ kind: 'owner' });
    for (const other of ['someone', 'Me', 'ME', 'local2', '', 'me:', 'admin']) expect(parseOpenPlaylistRef(other, 'local'), other).toBeNull();
  });

  it('reads provider references, keeping colons of the playlist id', () => {
    expect(parseOpenPlaylistRef(`spotify:${ACCOUNT}:37i9dQZF1DXcBWIGoYBM5M`, 'local')).toEqual({ kind: 'provider', provider: 'spotify', accountId: ACCOUNT, playlistId: '37i9dQZF1DXcBWIGoYBM5M' });
    expect(parseOpenPlaylistRef(`ytmusic:${ACCOUNT.toUpperCase()}:VL:PL1:x`, 'local')).toEqual({ kind: 'provider', provider: 'ytmusic', accountId: ACCOUNT, playlistId: 'VL:PL1:x' });
    expect(parseOpenPlaylistRef(providerPlaylistRef('tidal', ACCOUNT, 'liked'), 'local')).toMatchObject({ playlistId: 'liked' });
  });

  it('reads import references with a canonical index only', () => {
    expect(parseOpenPlaylistRef(importPlaylistRef(ACCOUNT, 3), 'local')).toEqual({ kind: 'import', importId: ACCOUNT, index: 3 });
    for (const bad of [`import:${ACCOUNT}:03`, `import:${ACCOUNT}:-1`, `import:${ACCOUNT}:`, `import:${ACCOUNT}:1.5`, `import:${ACCOUNT}:9999999`, 'import:nope:0']) expect(parseOpenPlaylistRef(bad, 'local'), bad).toBeNull();
  });

  it('refuses malformed provider references', () => {
    for (const bad of [`Spotify:${ACCOUNT}:x`, `spotify:${ACCOUNT}:`, `spotify:not-a-uuid:x`, `s:${ACCOUNT}:x`, `spotify:${ACCOUNT}`, `../${ACCOUNT}:x`, `spotify:${ACCOUNT}:${'x'.repeat(501)}`]) {
      expect(parseOpenPlaylistRef(bad, 'local'), bad).toBeNull();
    }
  });
});

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays, not scalars, without recursion', () => {
    expect(jsonDepthExceeds({ a: [1, { b: 'x' }] }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: [1, { b: { c: 1 } }] }, 3)).toBe(true);
    expect(jsonDepthExceeds('text', 0)).toBe(false);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(jsonDepthExceeds(deep, 32)).toBe(true);
  });
});
