import { describe, expect, it } from 'vitest';
import { estimateEntries } from '../../../../core/services/imports/entry-estimate.ts';
import { ParseGate, ParseGateFullError } from '../../../../core/services/imports/parse-gate.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ParseGate (pure)', () => {
  it('runs one call per plugin and at most maxRunning in all; later calls for a free plugin pass a busy one', async () => {
    const gate = new ParseGate({ maxRunning: 2, maxWaiting: 10 });
    const started: string[] = [];
    const holds = new Map<string, ReturnType<typeof deferred>>();
    const call = (key: string, label: string) =>
      gate.run(key, async () => {
        started.push(label);
        const hold = deferred();
        holds.set(label, hold);
        await hold.promise;
        return label;
      });
    const a1 = call('csv', 'a1');
    const a2 = call('csv', 'a2');
    const b1 = call('m3u', 'b1');
    const c1 = call('txt', 'c1');
    await Promise.resolve();
    expect(started).toEqual(['a1', 'b1']);
    expect(gate.load).toEqual({ running: 2, waiting: 2 });
    holds.get('a1')!.resolve();
    await a1;
    // csv is free again: a2 came first.
    await expect.poll(() => started).toEqual(['a1', 'b1', 'a2']);
    holds.get('b1')!.resolve();
    await b1;
    await expect.poll(() => started).toEqual(['a1', 'b1', 'a2', 'c1']);
    holds.get('a2')!.resolve();
    holds.get('c1')!.resolve();
    expect(await Promise.all([a2, c1])).toEqual(['a2', 'c1']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses beyond maxWaiting and frees its slot when the work fails', async () => {
    const gate = new ParseGate({ maxRunning: 1, maxWaiting: 1 });
    const hold = deferred();
    const first = gate.run('csv', () => hold.promise.then(() => 'first'));
    const second = gate.run('csv', async () => 'second');
    await expect(gate.run('csv', async () => 'third')).rejects.toBeInstanceOf(ParseGateFullError);
    hold.resolve();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    await expect(gate.run('csv', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('csv', async () => 'after')).toBe('after');
  });
});

describe('estimateEntries (pure)', () => {
  it('counts each format by its entry markers', () => {
    expect(estimateEntries('m3u8', bytes('#EXTM3U\n#EXTINF:1,A - B\nhttps://e.org/1\n\n  \nC:\\x.mp3\r\n# comment\r/y.mp3'))).toBe(3);
    expect(estimateEntries('txt', bytes('# Open Playlist TXT v1\nA - B\n\nC - D\n'))).toBe(2);
    expect(estimateEntries('pls', bytes('[playlist]\nFile1=a\nTitle1=x\nfile2=b\nNumberOfEntries=2\n'))).toBe(2);
    expect(estimateEntries('csv', bytes('title,artist\n"A, ""quoted""\nover lines",B\n,,\nC,D'))).toBe(2);
    expect(estimateEntries('wpl', bytes('<smil><body><seq><media src="a"/><media\tsrc="b"></media><mediaX/></seq></body></smil>'))).toBe(2);
    expect(estimateEntries('xspf', bytes('<playlist><trackList><track><title>a</title><trackNum>1</trackNum></track><track/></trackList></playlist>'))).toBe(2);
    expect(estimateEntries('xml', bytes('<playlists><playlist name="p"><tracks><track title="a"/><track><title>b</title></track></tracks></playlist></playlists>'))).toBe(2);
    // JSPF: the playlist's own title counts too; an overcount by one is what the margin is for.
    expect(estimateEntries('xspf', bytes('{"playlist":{"title":"P","track":[{"title":"a"},{"location":["x"]}]}}'))).toBe(2);
    expect(estimateEntries('json', bytes('{"playlists":[{"name":"P","tracks":[{"title":"a"},{"title":"b"}]}]}'))).toBe(2);
    expect(estimateEntries('itunes-library', bytes('<plist/>'))).toBeNull();
    expect(estimateEntries('someone-elses-format', bytes('a\nb\n'))).toBeNull();
  });

  it('reads UTF-16 files by their byte order mark', () => {
    const text = 'A - B\r\nC - D\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(estimateEntries('txt', new Uint8Array(le))).toBe(2);
    const be = Buffer.from(Buffer.from(text, 'utf16le')).swap16();
    expect(estimateEntries('txt', new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toBe(2);
  });

  it('counts a 50 MB file of 25 million one-character lines exactly', () => {
    // Its cost is part of the upload path that npm run bench -- import-preview measures; no timing here.
    expect(estimateEntries('m3u8', bytes('a\n'.repeat(25_000_000)))).toBe(25_000_000);
  });
});
