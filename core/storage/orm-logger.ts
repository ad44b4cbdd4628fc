import type { Logger as OrmLogger, LogContext, LoggerNamespace, LoggerOptions } from '@mikro-orm/core';
import type { Logger } from '../logging/logger.ts';

/**
 * Sends MikroORM's output to pino instead of the console. Query text is logged at trace level
 * and only when trace is on; bound parameters (which may hold tokens or ciphertext) never are.
 */
export function createOrmLoggerFactory(logger: Logger): (options: LoggerOptions) => OrmLogger {
  const log = logger.child({ component: 'mikro-orm' });
  return () => new PinoOrmLogger(log);
}

class PinoOrmLogger implements OrmLogger {
  readonly #log: Logger;
  #debugMode: boolean | LoggerNamespace[];

  constructor(log: Logger) {
    this.#log = log;
    this.#debugMode = log.isLevelEnabled('trace') ? ['query', 'info', 'discovery'] : false;
  }

  log(namespace: LoggerNamespace | (string & {}), message: string, context?: LogContext): void {
    if (context?.level === 'error') return this.error(namespace, message);
    if (context?.level === 'warning') return this.warn(namespace, message);
    if (!this.isEnabled(namespace as LoggerNamespace, context)) return;
    // Migrator progress ("Applied ...") is forced on; it is routine, so debug.
    this.#log.debug({ namespace }, clean(message));
  }

  error(namespace: LoggerNamespace | (string & {}), message: string): void {
    this.#log.error({ namespace }, clean(message));
  }

  warn(namespace: LoggerNamespace | (string & {}), message: string): void {
    this.#log.warn({ namespace }, clean(message));
  }

  logQuery(context: LogContext & { query?: string }): void {
    const namespace = context.namespace ?? 'query';
    if (namespace === 'slow-query') {
      this.#log.warn({ namespace, took: context.took }, clean(context.query ?? ''));
      return;
    }
    if (!this.isEnabled(namespace, context)) return;
    this.#log.trace({ namespace, took: context.took, results: context.results }, clean(context.query ?? ''));
  }

  setDebugMode(debugMode: boolean | LoggerNamespace[]): void {
    this.#debugMode = debugMode;
  }

  isEnabled(namespace: LoggerNamespace, context?: LogContext): boolean {
    if (namespace === 'query-params') return false;
    if (context?.enabled !== undefined) return context.enabled;
    if (namespace === 'deprecated') return true;
    const mode = context?.debugMode ?? this.#debugMode;
    return Array.isArray(mode) ? mode.includes(namespace) : mode;
  }
}

function clean(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}
