
/**
 * SQL of the instance-wide plugin state: the highest version ever loaded per plugin (so an older
 * bundle is a rollback), quarantine, and the hosted allow-list. Pure functions, `?` placeholders.
 */

export interface SqlStatement {
  text: string;
  values: unknown[];
}

const RECORD_COLUMNS = 'plugin_id, highest_version_seen, installed_version, state, state_reason, state_changed_at';

export function selectPluginRecords(): SqlStatement {
  return { text: `select ${RECORD_COLUMNS} from plugin_record order by plugin_id`, values: [] };
}

export function insertPluginRecord(pluginId: string, version: string): SqlStatement {
  return {
    text: `insert into plugin_record (plugin_id, highest_version_seen, installed_version) values (?, ?, ?) on conflict (plugin_id) do nothing returning plugin_id`,
    values: [pluginId, version, version],
  };
}

/**
 * Compare-and-set: moves the high-water mark only if nobody else moved it since we read it, so
 * two engine processes loading at once can never lower it.
 */
export function advancePluginRecord(pluginId: string, expectedHighest: string, highest: string, installed: string): SqlStatement {
  return {
    text: 'update plugin_record set highest_version_seen = ?, installed_version = ?, updated_at = now() where plugin_id = ? and highest_version_seen = ? returning plugin_id',
    values: [highest, installed, pluginId, expectedHighest],
  };
}

export function setInstalledVersion(pluginId: string, installed: string): SqlStatement {
  return { text: 'update plugin_record set installed_version = ?, updated_at = now() where plugin_id = ?', values: [installed, pluginId] };
}

export function quarantinePlugin(pluginId: string, version: string, reason: string): SqlStatement {
  return {
    text: `insert into plugin_record (plugin_id, highest_version_seen, state, state_reason, state_changed_at) values (?, ?, 'quarantined', ?, now())
      on conflict (plugin_id) do update set state = 'quarantined', state_reason = excluded.state_reason, state_changed_at = now(), updated_at = now()`,
    values: [pluginId, version, reason],
  };
}

export function releasePlugin(pluginId: string): SqlStatement {
  return {
    text: `update plugin_record set state = 'active', state_reason = null, state_changed_at = now(), updated_at = now() where plugin_id = ? and state = 'quarantined' returning plugin_id`,
    values: [pluginId],
  };
}

const ALLOW_LIST_COLUMNS = 'id, plugin_id, key_id, version_range, added_by, created_at';

export function selectAllowList(): SqlStatement {
  return { text: `select ${ALLOW_LIST_COLUMNS} from plugin_allow_list_entry order by plugin_id, created_at`, values: [] };
}

export function insertAllowListEntry(pluginId: string, keyId: string, versionRange: string, addedBy: string): SqlStatement {
  return {
    text: `insert into plugin_allow_list_entry (plugin_id, key_id, version_range, added_by) values (?, ?, ?, ?)
      on conflict (plugin_id, key_id, version_range) do nothing returning ${ALLOW_LIST_COLUMNS}`,
    values: [pluginId, keyId, versionRange, addedBy],
  };
}

export function deleteAllowListEntry(id: string): SqlStatement {
  return { text: 'delete from plugin_allow_list_entry where id = ? returning id', values: [id] };
}
