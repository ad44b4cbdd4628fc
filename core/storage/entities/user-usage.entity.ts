import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { uuidPrimaryKey } from './columns.ts';

/**
 * What a user of a hosted instance used, where the thing itself does not stay to be counted: the
 * bytes of an import (its record expires after `OPL_IMPORT_TTL_HOURS`, its file is never kept).
 * Per-user limits sum these rows over a 24-hour window; older rows are deleted by maintenance.
 */
export const UserUsage = defineEntity({
  name: 'UserUsage',
  tableName: 'user_usage',
  properties: {
    id: uuidPrimaryKey(),
    userId: p.text(),
    /** `import_bytes`. */
    kind: p.text(),
    amount: p.bigint('number'),
    usedAt: p.datetime(),
  },
  indexes: [{ properties: ['userId', 'kind', 'usedAt'] }, { properties: ['usedAt'] }],
});

export type UserUsage = InferEntity<typeof UserUsage>;
