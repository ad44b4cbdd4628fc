import type { PluginHostLogger } from '../../../../core/plugin-host/index.ts';

export interface CapturedLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly data: Record<string, unknown>;
  readonly message: string;
}

/** A pino-shaped logger that keeps every line, for assertions on what reached the engine's log. */
export function captureLogger(): PluginHostLogger & { lines: CapturedLine[]; text(): string } {
  const lines: CapturedLine[] = [];
  const at = (level: CapturedLine['level']) => (data: object, message: string) => {
    lines.push({ level, data: data as Record<string, unknown>, message });
  };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => JSON.stringify(lines),
  };
}
