import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { PROVIDER_ACCOUNT_STATUSES } from './values.ts';

/** A connected account at a music provider. Several accounts of one provider may coexist. */
export const ProviderAccount = defineEntity({
  name: 'ProviderAccount',
  tableName: 'provider_account',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    /** Provider key, e.g. `spotify`. */
    provider: p.text(),
    /** The account's id at the provider, once known. */
    providerUserId: p.text().nullable(),
    displayName: p.text().nullable(),
    status: p.enum(PROVIDER_ACCOUNT_STATUSES).default('connected'),
    /** The provider plugin that connected it. */
    pluginId: p.text().nullable(),
    /** Connected to a simulated demo provider (`OPL_DEMO`). */
    isDemo: p.boolean().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Also serves lookups by (owner_id, provider).
  uniques: [{ name: 'provider_account_identity_unique', properties: ['ownerId', 'provider', 'providerUserId'] }],
});

export type ProviderAccount = InferEntity<typeof ProviderAccount>;
