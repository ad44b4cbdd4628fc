import type { FormatContext, PluginLogger } from '../context.ts';
import { decodeText, encodeText } from '../sandbox/text-codec.ts';

/** The clock a test context reports unless told otherwise, so results that stamp a time are stable. */
export const TEST_NOW = '2024-06-01T00:00:00Z';

export type TestLogLevel = keyof PluginLogger;

export interface TestLogEntry {
  readonly level: TestLogLevel;
  readonly message: string;
  readonly data: Record<string, unknown> | undefined;
}

/** A format context for tests; `logged` holds what the plugin logged, in order. */
export interface TestFormatContext extends FormatContext {
  readonly logged: TestLogEntry[];
}

export interface FormatTestContextOptions {
  /** What `ctx.now()` answers (default {@link TEST_NOW}). */
  now?: string | (() => string);
}

/**
 * The parts of the host's context a format plugin uses: `decodeText`/`encodeText` run on the same
 * codec as the host (this process's TextDecoder/TextEncoder, limited to the host's encodings),
 * `now` is fixed, the log is recorded and `fetch` is refused (format plugins have no network).
 */
export function formatTestContext(options: FormatTestContextOptions = {}): TestFormatContext {
  const { now = TEST_NOW } = options;
  const logged: TestLogEntry[] = [];
  const logAt =
    (level: TestLogLevel) =>
    (message: string, data?: Record<string, unknown>): void => {
      logged.push({ level, message, data });
    };
  return {
    fetch: () => Promise.reject(new Error('format plugins have no network')),
    log: { debug: logAt('debug'), info: logAt('info'), warn: logAt('warn'), error: logAt('error') },
    decodeText: (bytes, encoding) => decodeText(bytes, encoding),
    encodeText: (text) => encodeText(text),
    now: typeof now === 'function' ? now : () => now,
    logged,
  };
}
