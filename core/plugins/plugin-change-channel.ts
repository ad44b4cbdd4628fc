import pg from 'pg';
import type { Logger } from '../logging/logger.ts';

/** The channel on which a process announces that plugin policy (allow-list, quarantine) changed. */
export const PLUGIN_CHANGE_CHANNEL = 'opl_plugin_policy';

/**
 * Cross-process wake-up for plugin policy: an API process that edits the allow-list notifies, and
 * every other engine process (workers, other API processes) re-applies the policy. The state itself
 * lives in PostgreSQL rows; the notification only says "look again".
 */
export class PluginChangeChannel {
  readonly #connectionString: string;
  readonly #logger: Logger;
  readonly #processId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  #client: pg.Client | undefined;
  #closed = false;

  constructor(connectionString: string, logger: Logger) {
    this.#connectionString = connectionString;
    this.#logger = logger;
  }

  /** Calls `onChange` when another process announces a change. */
  async listen(onChange: () => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString, application_name: 'opl-plugin-listener' });
    client.on('error', (error) => {
      if (!this.#closed) this.#logger.error({ err: error }, 'plugin change listener lost its connection');
    });
    client.on('notification', (message) => {
      if (message.channel === PLUGIN_CHANGE_CHANNEL && message.payload !== this.#processId) onChange();
    });
    await client.connect();
    await client.query(`LISTEN ${PLUGIN_CHANGE_CHANNEL}`);
    this.#client = client;
  }

  async announce(execute: (statement: { text: string; values: unknown[] }) => Promise<unknown>): Promise<void> {
    await execute({ text: 'select pg_notify(?, ?)', values: [PLUGIN_CHANGE_CHANNEL, this.#processId] });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.end().catch(() => undefined);
  }
}
