import { describe, expect, it } from 'vitest';
import { lookupEach } from '../../../plugin-sdk/src/lookup-answers.ts';
import { NotFound, ProviderError } from '../../../plugin-sdk/src/errors.ts';

const idOf = (uri: string) => /^svc:track:(\w+)$/.exec(uri)?.[1] ?? null;
const track = (id: string) => ({ title: `Song ${id}`, artist: 'Someone' });

describe('lookupEach', () => {
  it('answers each URI in order, reading each distinct id once, one at a time', async () => {
    const reads: string[] = [];
    let inFlight = 0;
    const answer = await lookupEach(['svc:track:a', 'other:track:x', 'svc:track:gone', 'svc:track:a', 'svc:track:404', 'svc:track:b'], idOf, async (id) => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      reads.push(id);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      if (id === 'gone') return null;
      if (id === '404') throw new NotFound('no such track');
      return track(id);
    });
    expect(answer.tracks).toEqual([track('a'), null, null, track('a'), null, track('b')]);
    expect(reads).toEqual(['a', 'gone', '404', 'b']);
  });

  it('ends the call on any other failure', async () => {
    await expect(lookupEach(['svc:track:a', 'svc:track:b'], idOf, async (id) => {
      if (id === 'b') throw new ProviderError('503');
      return track(id);
    })).rejects.toBeInstanceOf(ProviderError);
  });
});
