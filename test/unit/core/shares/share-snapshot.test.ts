import { playlistSchema, type Playlist } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderSharePage } from '../../../../core/services/shares/share-page.ts';
import { buildShareSnapshot, ShareTooLargeError } from '../../../../core/services/shares/share-snapshot.ts';

const playlist: Playlist = playlistSchema.parse({
  id: 'pl-123',
  name: 'Road <Trip>',
  description: 'Songs for "the drive" & more',
  owner_id: 'user-42',
  owner_name: 'Private Person',
  snapshot_id: 'snap-9',
  is_owned: true,
  metadata: { followers: 12 },
  tracks: [
    { title: 'Sunday Drive', artist: 'Copper Tide', isrc: 'QZABC2600001', source_item_id: 'entry-1', added_at: '2026-01-02T03:04:05Z', provider_uris: { spotify: 'spotify:track:abc' }, metadata: { added_by: 'user-42' }, provider_metadata: { x: 1 } },
    { title: '<script>alert(1)</script>', artist: 'O\'Neil & Sons', duration_s: 215 },
  ],
});

const limits = { maxTracks: 10, maxBytes: 100_000 };

describe('buildShareSnapshot', () => {
  it('is an Open Playlist bundle v1 of the playlist without the sharer\'s account data', () => {
    const snapshot = buildShareSnapshot(playlist, { sourceProvider: 'spotify', schemaBaseUrl: 'https://music.example.test/schemas/', limits });
    expect(snapshot).toMatchObject({ name: 'Road <Trip>', trackCount: 2 });
    const bundle = snapshot.bundle as { $schema: string; schema_version: number; source_provider: string; playlists: Playlist[]; warnings: unknown[] };
    expect(bundle).toMatchObject({ $schema: 'https://music.example.test/schemas/export/open-playlist-bundle-v1.json', schema_version: 1, source_provider: 'spotify', warnings: [] });
    const [shared] = bundle.playlists;
    expect(shared).toMatchObject({ id: null, owner_id: null, owner_name: null, snapshot_id: null, is_owned: null, metadata: {}, track_count: 2, description: 'Songs for "the drive" & more' });
    expect(shared!.tracks[0]).toMatchObject({ title: 'Sunday Drive', isrc: 'QZABC2600001', provider_uris: { spotify: 'spotify:track:abc' }, source_item_id: null, added_at: null, metadata: {}, provider_metadata: {}, position: 0 });
    expect(JSON.stringify(bundle)).not.toMatch(/user-42|Private Person|entry-1/);
    // What is kept is still a valid universal Playlist model.
    expect(playlistSchema.safeParse(shared).success).toBe(true);
  });

  it('refuses playlists over the track or byte cap with the numbers', () => {
    expect(() => buildShareSnapshot(playlist, { sourceProvider: null, schemaBaseUrl: 'https://x.test/schemas', limits: { maxTracks: 1, maxBytes: 100_000 } })).toThrow(ShareTooLargeError);
    try {
      buildShareSnapshot(playlist, { sourceProvider: null, schemaBaseUrl: 'https://x.test/schemas', limits: { maxTracks: 10, maxBytes: 500 } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ShareTooLargeError);
      expect((error as ShareTooLargeError).extensions).toMatchObject({ max_bytes: 500 });
    }
  });
});

describe('renderSharePage', () => {
  it('escapes every value and carries no script', () => {
    const html = renderSharePage(playlist, { page: 'https://music.example.test/share/"x"', json: '/api/public/shares/x', copy: '/#/copy/"x"' });
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<h1>Road &lt;Trip&gt;</h1>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('O&#39;Neil &amp; Sons');
    expect(html).toContain('Songs for &quot;the drive&quot; &amp; more');
    expect(html).toContain('<code>https://music.example.test/share/&quot;x&quot;</code>');
    expect(html).toContain('3:35');
    // The recipient's way on: a plain link to the UI's copy page (no script on this page).
    expect(html).toContain('<a href="/#/copy/&quot;x&quot;">Copy to my account</a>');
  });

  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
