import type { Manifest } from '@opl/plugin-sdk';

/** The format plugins of a catalogue that can read (import) or write (export) files. */
export interface FormatChoice {
  pluginId: string;
  name: string;
  extensions: readonly string[];
  mediaTypes: readonly string[];
}

function formatsOf(manifests: readonly Manifest[], direction: 'import' | 'export'): FormatChoice[] {
  return manifests
    .filter((manifest) => manifest.kind === 'format' && manifest.format?.directions.includes(direction))
    .map((manifest) => ({ pluginId: manifest.id, name: manifest.format!.name, extensions: manifest.format!.extensions, mediaTypes: manifest.format!.media_types }));
}

export function readableFormats(manifests: readonly Manifest[]): FormatChoice[] {
  return formatsOf(manifests, 'import');
}

export function writableFormats(manifests: readonly Manifest[]): FormatChoice[] {
  return formatsOf(manifests, 'export');
}

/** The reader for a file: by format name when given, else by the file name's (longest) extension. */
export function readerFor(manifests: readonly Manifest[], fileName: string, formatName?: string): FormatChoice | undefined {
  const readers = readableFormats(manifests);
  if (formatName) return readers.find((format) => format.name === formatName);
  const lower = fileName.toLowerCase();
  let best: { format: FormatChoice; length: number } | undefined;
  for (const format of readers) {
    for (const extension of format.extensions) {
      if (lower.endsWith(extension) && (!best || extension.length > best.length)) best = { format, length: extension.length };
    }
  }
  return best?.format;
}
