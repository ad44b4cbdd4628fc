import { listFilesInside, readFileInside } from './safe-path.ts';
import { utf8 } from './encoding.ts';

/**
 * Where a bundle's bytes come from: a directory, a registry (local or HTTPS) or memory. Verification
 * only needs these two reads, so the same checks run whatever the transport.
 */
export interface BundleSource {
  /** Shown in messages (a directory, a URL). */
  readonly location: string;
  /** The file's bytes; null when it does not exist. Throws when it cannot be read safely. */
  readonly readFile: (path: string) => Promise<Uint8Array | null>;
  /** Every file of the bundle, or null when the transport cannot list (HTTPS). */
  readonly listFiles: () => Promise<string[] | null>;
}

export function directoryBundleSource(dir: string): BundleSource {
  return {
    location: dir,
    readFile: (path) => readFileInside(dir, path),
    listFiles: () => listFilesInside(dir),
  };
}

/** A bundle held in memory (tests, tools that build before writing). Strings are stored as UTF-8. */
export function memoryBundleSource(files: Readonly<Record<string, Uint8Array | string>>, location = 'memory'): BundleSource {
  const entries = new Map(Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? utf8(content) : content]));
  return {
    location,
    readFile: async (path) => {
      const bytes = entries.get(path);
      return bytes ? new Uint8Array(bytes) : null;
    },
    listFiles: async () => [...entries.keys()].sort(),
  };
}
