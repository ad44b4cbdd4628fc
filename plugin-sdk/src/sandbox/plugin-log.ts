import { parseBoundaryJson } from './boundary-json.ts';
import type { Redactor } from './redactor.ts';

/**
 * Turns `ctx.log` calls into bounded, redacted log entries. A plugin can log at most
 * `MAX_LOGS_PER_CALL` entries per call (one warning says when more were dropped), each message is
 * cut to `MAX_LOG_MESSAGE` characters and its data to `MAX_LOG_DATA` characters of JSON, and every
 * string in them is scrubbed of the call's credential values before the host logger sees it.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const MAX_LOGS_PER_CALL = 100;
export const MAX_LOG_MESSAGE = 2_000;
export const MAX_LOG_DATA = 8_192;

export interface SandboxLogEntry {
  readonly level: LogLevel;
  readonly message: string;
  readonly data?: Record<string, unknown>;
  /** `plugin`: written by the plugin through ctx.log; `sandbox`: the host reporting on the plugin. */
  readonly source: 'plugin' | 'sandbox';
  readonly pluginId: string;
  readonly op?: string;
}

export type SandboxLog = (entry: SandboxLogEntry) => void;

function redactDeep(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redactor, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redactor.text(key)] = redactDeep(item, redactor, depth + 1);
  return out;
}

export interface LogBudget {
  count: number;
}

export function pluginLogEntry(
  raw: { level: unknown; message: unknown; data: unknown },
  budget: LogBudget,
  redactor: Redactor,
  where: { pluginId: string; op: string },
): SandboxLogEntry | null {
  if (typeof raw.level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(raw.level)) return null;
  budget.count += 1;
  if (budget.count > MAX_LOGS_PER_CALL) {
    if (budget.count !== MAX_LOGS_PER_CALL + 1) return null;
    return { level: 'warn', source: 'sandbox', message: `plugin log limit of ${MAX_LOGS_PER_CALL} entries per call reached; further entries of this call are dropped`, ...where };
  }
  const message = redactor.text(String(raw.message).slice(0, MAX_LOG_MESSAGE));
  let data: Record<string, unknown> | undefined;
  if (typeof raw.data === 'string') {
    if (raw.data.length > MAX_LOG_DATA) {
      data = { truncated: true };
    } else {
      try {
        const parsed = redactDeep(parseBoundaryJson(raw.data), redactor, 0);
        data = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
      } catch {
        data = { unreadable: true };
      }
    }
  }
  return { level: raw.level as LogLevel, message, ...(data ? { data } : {}), source: 'plugin', ...where };
}
