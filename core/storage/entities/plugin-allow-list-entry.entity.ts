import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, uuidPrimaryKey } from './columns.ts';

/** Hosted-mode allow-list: a plugin is loaded only if signed by `key_id` within `version_range`. */
export const PluginAllowListEntry = defineEntity({
  name: 'PluginAllowListEntry',
  tableName: 'plugin_allow_list_entry',
  properties: {
    id: uuidPrimaryKey(),
    pluginId: p.text(),
    keyId: p.text(),
    /** A semver range. */
    versionRange: p.text(),
    /** The admin who added it. */
    addedBy: p.text(),
    createdAt: createdAt(),
  },
  uniques: [{ properties: ['pluginId', 'keyId', 'versionRange'] }],
});

export type PluginAllowListEntry = InferEntity<typeof PluginAllowListEntry>;
