import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputBatch, OutputError } from '../../../../core/cli/convert/output-batch.ts';
import { fileIdentity } from '../../../../core/cli/convert/same-file.ts';

describe('OutputBatch: the files of one conversion appear all together or not at all', () => {
  let root: string;
  let batch: OutputBatch;

  const text = (value: string) => (sink: (chunk: Uint8Array) => Promise<void>) => sink(new TextEncoder().encode(value));

  async function open(force: boolean): Promise<OutputBatch> {
    const input = join(root, 'input.txt');
    await writeFile(input, 'A - B\n');
    batch = new OutputBatch({ force, input: fileIdentity(input, await stat(input, { bigint: true })), onInterrupt: () => undefined });
    return batch;
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'opl-output-batch-'));
  });

  afterEach(async () => {
    batch?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('publishes nothing before every file is written, and everything at once', async () => {
    const batch = await open(false);
    await batch.stage(join(root, 'out', 'a.csv'), text('a'));
    await batch.stage(join(root, 'out', 'b.csv'), text('b'));
    expect((await readdir(join(root, 'out'))).every((name) => name.endsWith('.partial'))).toBe(true);
    batch.publish();
    expect((await readdir(join(root, 'out'))).sort()).toEqual(['a.csv', 'b.csv']);
  });

  it('discarding removes the temporary files and the directories it made, never one that was there', async () => {
    await mkdir(join(root, 'kept'));
    const batch = await open(false);
    await batch.stage(join(root, 'kept', 'made', 'deeper', 'a.csv'), text('a'));
    batch.discard();
    expect(await readdir(join(root, 'kept'))).toEqual([]);
  });

  it('checks every destination before publishing any: an existing file without --force, a directory with it', async () => {
    await writeFile(join(root, 'b.csv'), 'mine');
    const plain = await open(false);
    await plain.stage(join(root, 'a.csv'), text('a'));
    await plain.stage(join(root, 'b.csv'), text('b'));
    expect(() => plain.publish()).toThrow(expect.objectContaining({ problem: 'exists', path: join(root, 'b.csv') }) as OutputError);
    plain.close();
    expect((await readdir(root)).sort()).toEqual(['b.csv', 'input.txt']);

    await mkdir(join(root, 'c.csv'));
    const forced = await open(true);
    await forced.stage(join(root, 'a.csv'), text('a'));
    await forced.stage(join(root, 'c.csv'), text('c'));
    expect(() => forced.publish()).toThrow(expect.objectContaining({ problem: 'write', path: join(root, 'c.csv') }) as OutputError);
    forced.close();
    expect((await readdir(root)).sort()).toEqual(['b.csv', 'c.csv', 'input.txt']);
  });

  it('puts back the files --force replaced when a later file of the batch cannot take its name', async () => {
    await writeFile(join(root, 'a.csv'), 'old a');
    await writeFile(join(root, 'b.csv'), 'old b');
    // Not this run's file: the batch may neither remove it nor keep b.csv's old content under its name.
    await writeFile(join(root, `.b.csv.${process.pid}.previous`), 'someone else’s');
    const batch = await open(true);
    await batch.stage(join(root, 'a.csv'), text('new a'));
    await batch.stage(join(root, 'b.csv'), text('new b'));
    expect(() => batch.publish()).toThrow(OutputError);
    batch.close();
    expect(await readFile(join(root, 'a.csv'), 'utf8')).toBe('old a');
    expect(await readFile(join(root, 'b.csv'), 'utf8')).toBe('old b');
    expect(await readFile(join(root, `.b.csv.${process.pid}.previous`), 'utf8')).toBe('someone else’s');
    expect((await readdir(root)).sort()).toEqual([`.b.csv.${process.pid}.previous`, 'a.csv', 'b.csv', 'input.txt']);
  });

  it('with --force, replaces existing files and keeps no copy of them', async () => {
    await writeFile(join(root, 'a.csv'), 'old a');
    const batch = await open(true);
    await batch.stage(join(root, 'a.csv'), text('new a'));
    batch.publish();
    expect(await readFile(join(root, 'a.csv'), 'utf8')).toBe('new a');
    expect((await readdir(root)).sort()).toEqual(['a.csv', 'input.txt']);
  });
});
