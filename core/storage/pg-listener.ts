import pg from 'pg';
import type { Logger } from '../logging/logger.ts';

const MAX_RECONNECT_DELAY_MS = 30_000;

export interface PgListenerOptions {
  connectionString: string;
  /** The NOTIFY channel (a plain identifier). */
  channel: string;
  applicationName: string;
  logger: Logger;
  /** Called with each notification's payload. */
  onNotify(payload: string): void;
  /** Called after a lost connection is back: notifications sent meanwhile were missed, so look again. */
  onReconnect(): void;
}

/**
 * One dedicated PostgreSQL connection that LISTENs on a channel. The state always lives in rows;
 * a notification only says "look again". A lost connection is re-established with backoff, and
 * `onReconnect` tells the owner to re-read what it may have missed.
 */
export class PgListener {
  readonly #options: PgListenerOptions;
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;

  constructor(options: PgListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
    this.#options = options;
  }

  /** Connects and listens (once; later calls wait for the same connection). */
  start(): Promise<void> {
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    const { connectionString, channel, applicationName, logger } = this.#options;
    const client = new pg.Client({ connectionString, application_name: applicationName });
    const lost = (error?: Error) => {
      if (this.#closed || this.#client !== client) return;
      this.#client = undefined;
      logger.warn({ err: error, channel }, 'notification listener lost its connection; reconnecting');
      client.end().catch(() => undefined);
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === channel) this.#options.onNotify(message.payload ?? '');
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      this.#client = undefined;
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#failures = 0;
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#reconnectTimer) return;
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** this.#failures);
    this.#failures += 1;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#connect().then(
        () => this.#options.onReconnect(),
        () => this.#scheduleReconnect(),
      );
    }, delay);
    this.#reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
