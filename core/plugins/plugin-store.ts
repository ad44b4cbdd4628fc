import semver from 'semver';
import {
  advancePluginRecord,
  deleteAllowListEntry,
  insertAllowListEntry,
  insertPluginRecord,
  quarantinePlugin,
  releasePlugin,
  selectAllowList,
  selectPluginRecords,
  setInstalledVersion,
} from './plugin-store.sql.ts';
import type { SqlStatement } from './plugin-store.sql.ts';

export type Execute = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

export interface PluginRecordRow {
  pluginId: string;
  highestVersionSeen: string;
  installedVersion: string | null;
  state: 'active' | 'refused' | 'quarantined';
  stateReason: string | null;
}

export interface AllowListEntry {
  id: string;
  plugin_id: string;
  key_id: string;
  version_range: string;
  added_by: string;
  created_at: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toAllowListEntry(row: Record<string, unknown>): AllowListEntry {
  const createdAt = row.created_at;
  return {
    id: String(row.id),
    plugin_id: String(row.plugin_id),
    key_id: String(row.key_id),
    version_range: String(row.version_range),
    added_by: String(row.added_by),
    created_at: createdAt instanceof Date ? createdAt.toISOString() : String(createdAt),
  };
}

/** What the catalogue needs of the instance's plugin state. */
export interface PluginStateStore {
  records(): Promise<Map<string, PluginRecordRow>>;
  recordLoaded(pluginId: string, version: string): Promise<void>;
  quarantine(pluginId: string, version: string, reason: string): Promise<void>;
  allowList(): Promise<AllowListEntry[]>;
}

/**
 * Plugin state for one short-lived process without a database (the offline `opl convert`): the
 * same policy, but the rollback high-water mark and quarantines last only as long as the process.
 */
export class MemoryPluginState implements PluginStateStore {
  readonly #records = new Map<string, PluginRecordRow>();

  async records(): Promise<Map<string, PluginRecordRow>> {
    return new Map(this.#records);
  }

  async recordLoaded(pluginId: string, version: string): Promise<void> {
    const current = this.#records.get(pluginId);
    const highest = current && semver.valid(current.highestVersionSeen) && semver.gte(current.highestVersionSeen, version) ? current.highestVersionSeen : version;
    this.#records.set(pluginId, { pluginId, highestVersionSeen: highest, installedVersion: version, state: current?.state ?? 'active', stateReason: current?.stateReason ?? null });
  }

  async quarantine(pluginId: string, version: string, reason: string): Promise<void> {
    const current = this.#records.get(pluginId);
    this.#records.set(pluginId, { pluginId, highestVersionSeen: current?.highestVersionSeen ?? version, installedVersion: current?.installedVersion ?? null, state: 'quarantined', stateReason: reason });
  }

  async allowList(): Promise<AllowListEntry[]> {
    return [];
  }
}

/** Instance-wide plugin state in PostgreSQL, shared by every engine process. */
export class PluginStore implements PluginStateStore {
  readonly #execute: Execute;

  constructor(execute: Execute) {
    this.#execute = execute;
  }

  async records(): Promise<Map<string, PluginRecordRow>> {
    const rows = await this.#execute(selectPluginRecords());
    return new Map(
      rows.map((row) => [
        String(row.plugin_id),
        {
          pluginId: String(row.plugin_id),
          highestVersionSeen: String(row.highest_version_seen),
          installedVersion: typeof row.installed_version === 'string' ? row.installed_version : null,
          state: row.state as PluginRecordRow['state'],
          stateReason: typeof row.state_reason === 'string' ? row.state_reason : null,
        },
      ]),
    );
  }

  /** Records a successful load; the high-water mark only ever moves up. */
  async recordLoaded(pluginId: string, version: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const inserted = await this.#execute(insertPluginRecord(pluginId, version));
      if (inserted.length > 0) return;
      const current = (await this.records()).get(pluginId);
      if (!current) continue;
      if (!semver.valid(current.highestVersionSeen) || semver.gt(version, current.highestVersionSeen)) {
        const moved = await this.#execute(advancePluginRecord(pluginId, current.highestVersionSeen, version, version));
        if (moved.length > 0) return;
      } else {
        await this.#execute(setInstalledVersion(pluginId, version));
        return;
      }
    }
    throw new Error(`could not record the loaded version of ${pluginId}: the record kept changing`);
  }

  async quarantine(pluginId: string, version: string, reason: string): Promise<void> {
    await this.#execute(quarantinePlugin(pluginId, version, reason));
  }

  /** Lifts a quarantine; false when the plugin was not quarantined. */
  async release(pluginId: string): Promise<boolean> {
    return (await this.#execute(releasePlugin(pluginId))).length > 0;
  }

  async allowList(): Promise<AllowListEntry[]> {
    return (await this.#execute(selectAllowList())).map(toAllowListEntry);
  }

  /** Adds an entry; returns null when the same entry already exists. */
  async addAllowListEntry(entry: { pluginId: string; keyId: string; versionRange: string; addedBy: string }): Promise<AllowListEntry | null> {
    const rows = await this.#execute(insertAllowListEntry(entry.pluginId, entry.keyId, entry.versionRange, entry.addedBy));
    const row = rows[0];
    return row ? toAllowListEntry(row) : null;
  }

  async removeAllowListEntry(id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    return (await this.#execute(deleteAllowListEntry(id))).length > 0;
  }
}
