import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README is a short guide that sends readers to deeper documents next to the code. A moved or
 * renamed document must not leave the guide pointing at nothing: every relative link of the README,
 * and of every document it links (followed to the end), names a file that exists, and a `#part`
 * names a heading of that file.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');
}

function headings(text: string): Set<string> {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

/** Relative markdown links `[text](target)`, outside code blocks. */
function links(text: string): string[] {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

interface Broken {
  from: string;
  link: string;
  problem: string;
}

function check(): { visited: string[]; broken: Broken[] } {
  const queue = [resolve(ROOT, 'README.md')];
  const visited = new Set<string>();
  const broken: Broken[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (visited.has(file)) continue;
    visited.add(file);
    const text = readFileSync(file, 'utf8');
    for (const link of links(text)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : resolve(dirname(file), path);
      const from = relative(ROOT, file);
      if (!existsSync(target)) {
        broken.push({ from, link, problem: 'no such file' });
        continue;
      }
      if (!target.endsWith('.md')) continue;
      if (anchor !== undefined && !headings(readFileSync(target, 'utf8')).has(anchor)) broken.push({ from, link, problem: 'no such heading' });
      queue.push(target);
    }
  }
  return { visited: [...visited].map((file) => relative(ROOT, file)), broken };
}

describe('README links', () => {
  it('every relative link of the README and the documents it leads to points at an existing file and heading', () => {
    const { visited, broken } = check();
    expect(broken).toEqual([]);
    // The guide really leads somewhere: the deeper documents it promises are reached.
    for (const document of ['core/matching/README.md', 'core/services/exports/README.md', 'core/services/open-playlists/README.md', 'test/bench/README.md', 'plugin-sdk/README.md', 'registry/README.md']) {
      expect(visited).toContain(document);
    }
  });

  it('stays a guide: under 400 lines', () => {
    expect(readFileSync(resolve(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(400);
  });

  it('tells a broken link from a good one', () => {
    expect(slug('Exposing an instance: the owner-session gate')).toBe('exposing-an-instance-the-owner-session-gate');
    expect(slug('The heap profile (`OPL_HEAP_PROFILE`)')).toBe('the-heap-profile-opl_heap_profile');
    expect(links('see [a](x.md#y) and [b](https://e.org) `[c](z)`\n```\n[d](w.md)\n```\n')).toEqual(['x.md#y', 'z']);
  });
});
