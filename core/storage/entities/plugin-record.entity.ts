import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPrimaryKey } from './columns.ts';
import { PLUGIN_STATES } from './values.ts';

/**
 * Instance-wide state of a plugin: the highest version ever seen (versions only move forward,
 * so an older bundle is a rollback and is refused) and whether it is refused or quarantined.
 */
export const PluginRecord = defineEntity({
  name: 'PluginRecord',
  tableName: 'plugin_record',
  properties: {
    id: uuidPrimaryKey(),
    pluginId: p.text().unique(),
    highestVersionSeen: p.text(),
    installedVersion: p.text().nullable(),
    state: p.enum(PLUGIN_STATES).default('active'),
    /** Why it is refused or quarantined; shown to admins. */
    stateReason: p.text().nullable(),
    stateChangedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export type PluginRecord = InferEntity<typeof PluginRecord>;
