import type { DestinationStream } from 'pino';

/**
 * Readable log lines for a person at a terminal: `14:02:07 INFO  listening url=http://… mode=…`.
 * pino still builds (and redacts) each JSON line first; this only re-renders it, so what a
 * terminal shows can hold no more than the JSON would.
 */

/** Readable when asked for, or on `auto` when standard output is a terminal. */
export function readableLogs(format: 'auto' | 'json' | 'pretty', stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

const LEVELS: Record<string, string> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO ', warn: 'WARN ', error: 'ERROR', fatal: 'FATAL' };
/** Fields every line has, or that say nothing to a person reading one process's terminal. */
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One JSON log line as readable text (a line that is not JSON comes back unchanged). */
export function formatLogLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(jsonLine);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return jsonLine.endsWith('\n') ? jsonLine : `${jsonLine}\n`;
    entry = parsed as Record<string, unknown>;
  } catch {
    return jsonLine.endsWith('\n') ? jsonLine : `${jsonLine}\n`;
  }
  const rawLevel = typeof entry['level'] === 'string' ? entry['level'] : valueText(entry['level']);
  const level = LEVELS[rawLevel] ?? rawLevel.toUpperCase().padEnd(5);
  const parts = [clock(entry['time']), level];
  if (typeof entry['name'] === 'string' && entry['name'] !== 'opl') parts.push(`[${entry['name']}]`);
  if (typeof entry['msg'] === 'string' && entry['msg'] !== '') parts.push(entry['msg']);
  for (const [key, value] of Object.entries(entry)) {
    if (!HIDDEN.has(key) && value !== undefined) parts.push(`${key}=${valueText(value)}`);
  }
  let text = parts.join(' ');
  const error = entry['err'] as { message?: unknown; stack?: unknown } | undefined;
  if (error && typeof error === 'object') {
    text += `\n    ${typeof error.message === 'string' ? error.message : valueText(error)}`;
    // The stack is for those who can act on it: errors and worse, not the warnings a user sees often.
    if ((entry['level'] === 'error' || entry['level'] === 'fatal') && typeof error.stack === 'string') {
      text += `\n${error.stack.split('\n').slice(1).map((line) => `    ${line.trim()}`).join('\n')}`;
    }
  }
  return `${text}\n`;
}

/** A pino destination that writes each line readable to `out`. */
export function readableDestination(out: { write(text: string): unknown }): DestinationStream {
  return {
    write(line: string) {
      for (const one of line.split('\n')) if (one.trim() !== '') out.write(formatLogLine(one));
    },
  };
}
