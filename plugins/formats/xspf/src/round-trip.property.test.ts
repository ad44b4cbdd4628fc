import fc from 'fast-check';
import type { Playlist } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import plugin from './index.ts';

/**
 * The restriction to what XML 1.0 can carry: a text (element or attribute) cannot hold C0
 * controls other than tab, LF and CR, lone surrogates, U+FFFE or U+FFFF — the writer strips them
 * (README "Characters XML 1.0 cannot carry"). Each such code unit is replaced by U+FFFD, which
 * keeps every length and every non-empty text non-empty, so the playlist stays valid. `metadata`
 * and `provider_metadata` are left as generated: they are written as JSON, whose escapes carry
 * any string. Nothing else is restricted: white space and line breaks anywhere, empty texts and
 * keys (an empty provider key too), numbers up to the largest safe integer.
 */
const NOT_IN_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const JSON_FIELDS = new Set(['metadata', 'provider_metadata']);

function xmlCarriable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(NOT_IN_XML, '\uFFFD');
  if (Array.isArray(value)) return value.map(xmlCarriable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [xmlCarriable(key), JSON_FIELDS.has(key) ? inner : xmlCarriable(inner)]));
}

/** A track's `position` is its place in the list, which XSPF carries as document order (the reader numbers tracks from 0). */
function inOrder(playlist: Playlist): Playlist {
  return { ...playlist, tracks: playlist.tracks.map((track, index) => ({ ...track, position: index })) };
}

const playlists = playlistsArbitrary.map((list) => list.map((playlist) => inOrder(xmlCarriable(playlist) as Playlist)));

describe('parse(serialize(x)) = x for everything the model holds and XML can carry', () => {
  it('holds for several playlists (one document each), empty ones, rich metadata, any white space', async () => {
    await fc.assert(
      fc.asyncProperty(playlists, fc.option(fc.constantFrom('spotify', 'tidal'), { nil: undefined }), async (list, provider) => {
        for (const playlist of list) {
          const { text } = await runSerialize(plugin, [playlist], { source_provider: provider });
          const parsed = await runParse(plugin, text, { filename: 'list.xspf' });
          expect(parsed.issues).toEqual([]);
          expect(parsed.playlists).toEqual([playlist]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps what the audit found lost: layout-like white space in texts, a padded or empty image, an empty provider key', async () => {
    const playlist = {
      name: '\n  Padded name  \n',
      description: '\r\nnotes ',
      owner_name: ' owner\n',
      artwork_uri: '',
      tracks: [
        { title: '\nTitle', artist: 'Artist\n', album: ' \n Album \n ', artwork_uri: ' https://img.example/a.jpg ', provider_uris: { '': 'spotify:track:1', tidal: 'tidal:track:2' } },
        { title: 'Plain', artist: 'A', artwork_uri: 'cover art.jpg' },
      ],
    };
    const { text } = await runSerialize(plugin, [playlist]);
    // Other software still finds the standard elements (the image as the URI it names, trimmed).
    expect(text).toContain('<image>https://img.example/a.jpg</image>');
    expect(text).not.toContain('<image>cover art.jpg</image>');
    const parsed = await runParse(plugin, text, { filename: 'list.xspf' });
    expect(parsed.issues).toEqual([]);
    expect(parsed.playlists[0]).toMatchObject({
      name: playlist.name,
      description: playlist.description,
      owner_name: playlist.owner_name,
      artwork_uri: '',
      tracks: [
        { title: '\nTitle', artist: 'Artist\n', album: ' \n Album \n ', artwork_uri: ' https://img.example/a.jpg ', provider_uris: { '': 'spotify:track:1', tidal: 'tidal:track:2' } },
        { title: 'Plain', artist: 'A', artwork_uri: 'cover art.jpg' },
      ],
    });
  });
});
