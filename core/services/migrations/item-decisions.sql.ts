import type { SqlStatement } from './migration-jobs.sql.ts';

/**
 * Remembered review decisions of many source entities of one type in one statement (a slice of a
 * migration's items): `selectDecisions` for each key, with the key it answers for.
 */
export function selectDecisionsOf(ownerId: string, provider: string, scopes: readonly string[], entityType: string, sourceKeys: readonly string[]): SqlStatement {
  return {
    text: `select source_key, scope, action, chosen_target_uri, chosen_target_id from review_decision
           where owner_id = ? and provider = ? and scope in (select jsonb_array_elements_text(?::jsonb)) and entity_type = ?
             and source_key in (select jsonb_array_elements_text(?::jsonb))`,
    values: [ownerId, provider, JSON.stringify(scopes), entityType, JSON.stringify([...new Set(sourceKeys)])],
  };
}
