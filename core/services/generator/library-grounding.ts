import type { ConnectionService } from '../connections/connection.service.ts';
import type { ValidateTarget } from '../matching/index.ts';
import { librarySourcesSchema, OPEN_GROUNDING, type Grounding } from './library-offer.ts';

/** How a draft was grounded, read back from its generation record (regenerating keeps it; a new seed is drawn). */
export function groundingOf(generation: Record<string, unknown>): Grounding {
  const recorded = generation['grounding'] as { mode?: unknown; sources?: unknown } | undefined;
  if (recorded?.mode !== 'library') return OPEN_GROUNDING;
  const parsed = librarySourcesSchema.safeParse(recorded.sources ?? {});
  if (!parsed.success) return { mode: 'library', sources: librarySourcesSchema.parse({}) };
  const { seed: _seed, ...sources } = parsed.data;
  return { mode: 'library', sources };
}

/**
 * The target adapter's `validateUri`, for the match service: a library track that already names a
 * track of the target (the same service as the target) is taken as it is, checked by the adapter,
 * without a search. A failed check says nothing against the track (null: "cannot tell"); a cancel
 * aborts a check in flight like a search.
 */
export function targetValidator(connections: Pick<ConnectionService, 'call'>, ownerId: string, accountId: string, signal?: AbortSignal): ValidateTarget {
  return async (uri) => {
    try {
      const answer = await connections.call(ownerId, accountId, 'validateUri', { uri }, signal);
      return { valid: answer.valid, id: answer.id ?? null, entity: answer.entity ?? null, normalizedUri: answer.normalized_uri ?? null };
    } catch {
      return null;
    }
  };
}
