import { describe, expect, it } from 'vitest';
import { classifySegment, parseTitle, splitArtistNames } from '../../../core/matching/index.ts';

const kinds = (title: string): string[] => parseTitle(title).tags.map((t) => t.kind);

describe('suffix classification', () => {
  it.each([
    ['Bohemian Rhapsody - Remastered 2011', 'remaster'],
    ['Song (2015 Remaster)', 'remaster'],
    ['Song (Live at Wembley 1986)', 'live'],
    ['Song - Live', 'live'],
    ['Titanium (David Guetta Remix)', 'remix'],
    ['Song (Club Mix)', 'extended'],
    ['Song (Acoustic)', 'acoustic'],
    ['Song (Instrumental)', 'instrumental'],
    ['Song (Karaoke Version)', 'karaoke'],
    ['Song (Originally Performed by Adele)', 'karaoke'],
    ['Song (Cover)', 'cover'],
    ['Song - Tribute', 'tribute'],
    ['Blinding Lights (Sped Up)', 'sped_up'],
    ['Song (Slowed + Reverb)', 'slowed'],
    ['Song - Nightcore', 'nightcore'],
    ['Song (Radio Edit)', 'radio_edit'],
    ['Song - Single Version', 'single_version'],
    ['Song (Demo)', 'demo'],
    ['Song (Spanish Version)', 'version'],
    ['Song (Edit)', 'edit'],
    ['Song (Explicit)', 'explicit'],
    ['Song [Clean]', 'clean'],
    ['Song - Mono', 'mono'],
    ['Song (Stereo)', 'stereo'],
    ['Song (Deluxe)', 'deluxe'],
    ["Shake It Off (Taylor's Version)", 're_recording'],
    ['Song (A Cappella)', 'a_cappella'],
    ['Song (Official Music Video)', 'video_tag'],
    ['Song (8D Audio)', 'altered'],
    ['Song (Alternate Take)', 'demo'],
  ])('%s is %s', (title, kind) => {
    expect(kinds(title)).toContain(kind);
    expect(parseTitle(title).base).not.toMatch(/[()[\]]/u);
  });

  it('keeps the remixer and the year in the tag detail', () => {
    expect(parseTitle('Titanium (David Guetta Remix)').tags[0]!.detail).toBe('david guetta remix');
    expect(parseTitle('Song - Remastered 2011').tags[0]!.detail).toBe('remastered 2011');
  });

  it('treats "Original Mix" and "Album Version" as the plain recording', () => {
    expect(classifySegment('Original Mix')).toEqual(['original']);
    expect(classifySegment('Album Version')).toEqual(['original']);
  });

  it('keeps unclassified brackets and dash parts in the title', () => {
    expect(parseTitle('Song (Part 2)').base).toBe('Song Part 2');
    expect(parseTitle('Song - The Return').base).toBe('Song The Return');
  });
});

describe('featured artists', () => {
  it.each([
    ['Song (feat. Drake)', ['Drake']],
    ['Song (ft. A & B)', ['A', 'B']],
    ['Song [featuring Rihanna]', ['Rihanna']],
    ['Song (with Kehlani)', ['Kehlani']],
    ['Song feat. Drake', ['Drake']],
    ['Song - feat. Drake', ['Drake']],
  ])('%s moves %j out of the title', (title, featured) => {
    const parsed = parseTitle(title);
    expect(parsed.featured).toEqual(featured);
    expect(parsed.base).toBe('Song');
  });

  it('recognises a leading or trailing artist in an upload title', () => {
    expect(parseTitle('Queen - Bohemian Rhapsody (Official Video)', ['Queen'])).toMatchObject({ base: 'Bohemian Rhapsody', leadingArtist: 'Queen' });
    expect(parseTitle('Bohemian Rhapsody - Queen (lyric video)', ['Queen'])).toMatchObject({ base: 'Bohemian Rhapsody', leadingArtist: 'Queen' });
  });

  it('splits artist strings on the usual separators', () => {
    expect(splitArtistNames('A, B & C feat. D')).toEqual(['A', 'B', 'C', 'D']);
    expect(splitArtistNames('A x B / C')).toEqual(['A', 'B', 'C']);
  });
});
