import { link, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileIdentity, isSameFile, type FileIdentity } from '../../../../core/cli/convert/same-file.ts';

describe('isSameFile: whether an output path names the input file', () => {
  let root: string;
  let input: FileIdentity;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'opl-same-file-'));
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'list.txt'), 'A - B\n');
    await writeFile(join(root, 'other.txt'), 'A - B\n');
    await symlink(join(root, 'list.txt'), join(root, 'alias.txt'));
    await link(join(root, 'list.txt'), join(root, 'hard.txt'));
    input = fileIdentity(join(root, 'list.txt'), await stat(join(root, 'list.txt'), { bigint: true }));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds the input under its own name, another spelling, a symlink and a hard link', () => {
    expect(isSameFile(input, join(root, 'list.txt'))).toBe(true);
    expect(isSameFile(input, `${root}/sub/../list.txt`)).toBe(true);
    expect(isSameFile(input, join(root, 'alias.txt'))).toBe(true);
    expect(isSameFile(input, join(root, 'hard.txt'))).toBe(true);
  });

  it('does not mistake another file with the same content, a missing file or a directory for it', () => {
    expect(isSameFile(input, join(root, 'other.txt'))).toBe(false);
    expect(isSameFile(input, join(root, 'missing.txt'))).toBe(false);
    expect(isSameFile(input, join(root, 'sub'))).toBe(false);
  });
});
