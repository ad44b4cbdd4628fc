import pg from 'pg';
import type { Logger } from '../logging/logger.ts';

/** The channel on which a process announces that plugin policy (allow-list, quarantine) changed. */
export const PLUGIN_CHANGE_CHANNEL = 'opl_plugin_policy';

const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * Cross-process wake-up for plugin policy: an API process that edits the allow-list notifies, and
 * every other engine process (workers, other API processes) re-applies the policy. The state itself
 * lives in PostgreSQL rows; the notification only says "look again". A lost connection is
 * re-established with backoff, and the policy is re-read then, since notifications may have been missed.
 */
export class PluginChangeChannel {
  readonly #connectionString: string;
  readonly #logger: Logger;
  readonly #processId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  #client: pg.Client | undefined;
  #onChange: (() => void) | undefined;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;

  constructor(connectionString: string, logger: Logger) {
    this.#connectionString = connectionString;
    this.#logger = logger;
  }

  /** Calls `onChange` when another process announces a change (and after a reconnect). */
  async listen(onChange: () => void): Promise<void> {
    this.#onChange = onChange;
    await this.#connect();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString, application_name: 'opl-plugin-listener' });
    const lost = (error?: Error) => {
      if (this.#closed || this.#client !== client) return;
      this.#client = undefined;
      this.#logger.warn({ err: error }, 'plugin change listener lost its connection; reconnecting');
      client.end().catch(() => undefined);
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === PLUGIN_CHANGE_CHANNEL && message.payload !== this.#processId) this.#onChange?.();
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PLUGIN_CHANGE_CHANNEL}`);
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
        () => this.#onChange?.(),
        () => this.#scheduleReconnect(),
      );
    }, delay);
    this.#reconnectTimer.unref();
  }

  async announce(execute: (statement: { text: string; values: unknown[] }) => Promise<unknown>): Promise<void> {
    await execute({ text: 'select pg_notify(?, ?)', values: [PLUGIN_CHANGE_CHANNEL, this.#processId] });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    await this.#client?.end().catch(() => undefined);
  }
}
