import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { describe, expect, it } from 'vitest';
import { listZipEntries, readZipJson, ZipReadError } from '../../../ui/src/components/export-page/zip-reader.ts';

/** Builds a real archive in memory with the same library and options the engine uses. */
async function zip(files: Record<string, string>, options: { forceZip64?: boolean; store?: boolean } = {}): Promise<Blob> {
  const archive = new ZipArchive({ forceZip64: options.forceZip64 ?? true, zlib: { level: 6 }, store: options.store ?? false });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  for (const [name, text] of Object.entries(files)) archive.append(Readable.from([Buffer.from(text)]), { name, date: new Date(0) });
  await archive.finalize();
  await ended;
  return new Blob([Buffer.concat(chunks)]);
}

const manifest = { schema_version: 1, format: 'csv', entries: [{ playlist_id: 'p1', playlist_name: 'Road Trip – Été', filename: 'Road Trip - Ete.csv', status: 'warning', track_count: 2, warning_codes: ['partial_selection'] }] };

describe('reading an export archive in the browser', () => {
  it('lists the entries of a ZIP64 archive and reads its deflated manifest', async () => {
    const csv = `"a","b"\n${'"x","y"\n'.repeat(5000)}`;
    const blob = await zip({ 'Road Trip - Ete.csv': csv, 'manifest.json': JSON.stringify(manifest) });
    const { entries, json } = await readZipJson(blob, 'manifest.json');
    expect(entries.map((entry) => entry.name)).toEqual(['Road Trip - Ete.csv', 'manifest.json']);
    expect(entries[0]!.size).toBe(Buffer.byteLength(csv));
    expect(entries[0]!.compressedSize).toBeLessThan(entries[0]!.size);
    expect(json).toEqual(manifest);
  });

  it('reads stored entries and archives without ZIP64 records', async () => {
    const blob = await zip({ 'manifest.json': JSON.stringify(manifest) }, { forceZip64: false, store: true });
    const { entries, json } = await readZipJson(blob, 'manifest.json');
    expect(entries).toMatchObject([{ name: 'manifest.json', method: 0 }]);
    expect(json).toEqual(manifest);
  });

  it('answers undefined for a missing entry and refuses what is not a ZIP', async () => {
    const blob = await zip({ 'a.txt': 'hello' });
    expect((await readZipJson(blob, 'manifest.json')).json).toBeUndefined();
    await expect(listZipEntries(new Blob(['"schema_version","playlist_id"\n']))).rejects.toBeInstanceOf(ZipReadError);
  });

  it('refuses a truncated archive and a manifest that is not JSON', async () => {
    const whole = await zip({ 'manifest.json': JSON.stringify(manifest) });
    await expect(listZipEntries(whole.slice(0, whole.size - 30))).rejects.toBeInstanceOf(ZipReadError);
    const broken = await zip({ 'manifest.json': '{"schema_version": 1,' });
    await expect(readZipJson(broken, 'manifest.json')).rejects.toThrow(/not valid UTF-8 JSON/);
  });
});
