import { describe, expect, it } from 'vitest';
import { jsonInText } from './chat-model.client.ts';
import { intentsJsonSchema, readIntents } from './track-intents.ts';

describe('readIntents', () => {
  it('reads {tracks}, or a bare array, keeping the first N and noting the rest', () => {
    const tracks = [1, 2, 3, 4].map((n) => ({ title: `Song ${n}`, artist: 'Band' }));
    expect(readIntents({ tracks }, 2)).toEqual({
      intents: [
        { title: 'Song 1', artist: 'Band', album: null, release_year: null, reason: null },
        { title: 'Song 2', artist: 'Band', album: null, release_year: null, reason: null },
      ],
      notes: [{ code: 'extra_items_dropped', message: 'The model proposed 4 songs for 2 asked; the first 2 usable ones are kept.' }],
    });
    expect(readIntents(tracks, 10)!.intents).toHaveLength(4);
    expect(readIntents({ songs: tracks }, 10)).toBeNull();
    expect(readIntents('text', 10)).toBeNull();
  });

  it('drops a song without title or artist, repeats (after folding case and accents), and caps lengths', () => {
    const read = readIntents({ tracks: [{ title: 'Café', artist: 'Zoë' }, { title: 'cafe', artist: 'ZOE' }, { title: '', artist: 'x' }, { title: 't'.repeat(500), artist: 'a' }, 'nope'] }, 10)!;
    expect(read.intents.map((intent) => intent.title.length)).toEqual([4, 200]);
    expect(read.notes.map((note) => note.code)).toEqual(['duplicate_intent', 'item_invalid', 'item_invalid']);
  });

  it('removes control and bidi characters, and refuses markup, URLs and provider ids in any field', () => {
    const read = readIntents(
      {
        tracks: [
          { title: 'Night\u202eDrive\u0000', artist: 'The  Band' },
          { title: 'Song [url]x[/url]', artist: 'a' },
          { title: 'Song', artist: 'deezer:track:3135556' },
          { title: 'Song', artist: 'b', album: 'GBAYE0601498' },
          { title: 'Supercalifragilisticexp', artist: 'c' },
        ],
      },
      10,
    )!;
    expect(read.intents.map((intent) => [intent.title, intent.artist, intent.album])).toEqual([
      ['Night Drive', 'The Band', null],
      ['Song', 'b', null],
      ['Supercalifragilisticexp', 'c', null],
    ]);
    expect(read.notes.map((note) => [note.code, note.index])).toEqual([
      ['item_invalid', 1],
      ['item_invalid', 2],
      ['field_dropped', 3],
    ]);
  });
});

describe('intentsJsonSchema', () => {
  it('caps the items at the count and allows no other property', () => {
    const schema = intentsJsonSchema(7) as { additionalProperties: boolean; properties: { tracks: { maxItems: number; items: { required: string[]; additionalProperties: boolean } } } };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.tracks.maxItems).toBe(7);
    expect(schema.properties.tracks.items.additionalProperties).toBe(false);
    expect(schema.properties.tracks.items.required).toEqual(['title', 'artist', 'album', 'release_year', 'reason']);
  });
});

describe('jsonInText', () => {
  it('reads bare JSON, a fenced block, or the outermost braces of chatty text', () => {
    expect(jsonInText('{"a":1}')).toEqual({ a: 1 });
    expect(jsonInText('Here:\n```json\n{"a":2}\n```\nEnjoy')).toEqual({ a: 2 });
    expect(jsonInText('Sure! {"a":3} hope that helps')).toEqual({ a: 3 });
    expect(jsonInText('no json')).toBeUndefined();
  });
});
