import type { Logger } from '../logging/logger.ts';
import { PgListener } from '../storage/pg-listener.ts';

/** The channel on which a process announces that plugin policy (allow-list, quarantine) changed. */
export const PLUGIN_CHANGE_CHANNEL = 'opl_plugin_policy';

/**
 * Cross-process wake-up for plugin policy: an API process that edits the allow-list notifies, and
 * every other engine process (workers, other API processes) re-applies the policy. The state itself
 * lives in PostgreSQL rows; the notification only says "look again". After a lost connection the
 * policy is re-read, since notifications may have been missed.
 */
export class PluginChangeChannel {
  readonly #connectionString: string;
  readonly #logger: Logger;
  readonly #processId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  #listener: PgListener | undefined;

  constructor(connectionString: string, logger: Logger) {
    this.#connectionString = connectionString;
    this.#logger = logger;
  }

  /** Calls `onChange` when another process announces a change (and after a reconnect). */
  async listen(onChange: () => void): Promise<void> {
    this.#listener = new PgListener({
      connectionString: this.#connectionString,
      channel: PLUGIN_CHANGE_CHANNEL,
      applicationName: 'opl-plugin-listener',
      logger: this.#logger,
      // A process does not react to its own announcements.
      onNotify: (payload) => {
        if (payload !== this.#processId) onChange();
      },
      onReconnect: onChange,
    });
    await this.#listener.start();
  }

  async announce(execute: (statement: { text: string; values: unknown[] }) => Promise<unknown>): Promise<void> {
    await execute({ text: 'select pg_notify(?, ?)', values: [PLUGIN_CHANGE_CHANNEL, this.#processId] });
  }

  async close(): Promise<void> {
    await this.#listener?.close();
  }
}
