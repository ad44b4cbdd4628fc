import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, uuidPrimaryKey } from './columns.ts';
import { LIBRARY_PAIR_RELATIONS } from './values.ts';

/**
 * A user's own word on two members of the Library workspace (a member is one account's playlist or
 * liked collection): `linked` (they joined them: the same playlist) or `apart` (they split them:
 * never grouped together, whatever the evidence). The pair is stored once, its two members in
 * code-unit order (`a` before `b`). Local only: nothing on a provider changes.
 */
export const LibraryMemberPair = defineEntity({
  name: 'LibraryMemberPair',
  tableName: 'library_member_pair',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    aAccountId: p.uuid(),
    aPlaylistId: p.text(),
    bAccountId: p.uuid(),
    bPlaylistId: p.text(),
    relation: p.enum(LIBRARY_PAIR_RELATIONS),
    createdAt: createdAt(),
  },
  uniques: [{ name: 'library_member_pair_unique', properties: ['ownerId', 'aAccountId', 'aPlaylistId', 'bAccountId', 'bPlaylistId'] }],
});

export type LibraryMemberPair = InferEntity<typeof LibraryMemberPair>;
