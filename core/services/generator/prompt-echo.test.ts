import { describe, expect, it } from 'vitest';
import { echoesPrompt } from './prompt-echo.ts';

describe('a reason that repeats the request', () => {
  const prompt = 'Songs for my sister Ingrid-4471 who loves rainy  Sunday mornings';

  it('is recognised by any stretch of twelve characters, whatever the case and spacing', () => {
    expect(echoesPrompt('Picked because you asked for songs for my sister.', prompt)).toBe(true);
    expect(echoesPrompt('For INGRID-4471, naturally', prompt)).toBe(true);
    expect(echoesPrompt('rainy sunday mornings vibe', prompt)).toBe(true);
  });

  it('lets a reason through that shares only a few words', () => {
    expect(echoesPrompt('A calm piano piece for a slow morning.', prompt)).toBe(false);
    expect(echoesPrompt('Upbeat and sunny.', prompt)).toBe(false);
  });

  it('treats a short request as a whole, and a very short one as nothing private', () => {
    expect(echoesPrompt('more 80s synthpop please', '80s synthpop')).toBe(true);
    expect(echoesPrompt('classic jazz standard', 'jazz')).toBe(false);
  });
});
