import { paginate, parseInclude, type ResourceIdentifier } from './json-api.ts';
import { CompoundDocument, RELATIONSHIPS } from './tidal-resources.ts';
import { type CollectionEntry } from './tidal-state.ts';
import { batchData, checkFilters, cursorOf, idempotent, readBody, requireScope, sortParam, userIdParam, withIncluded, type Handler } from './tidal-call.ts';

/**
 * The fake TIDAL API's user collections: favourite tracks, albums and artists, listed, added and
 * removed in batches.
 */

type CollectionKind = 'tracks' | 'albums' | 'artists';

const COLLECTION_SORTS: Record<CollectionKind, string[]> = {
  tracks: ['addedAt', '-addedAt', 'title', '-title'],
  albums: ['addedAt', '-addedAt', 'title', '-title'],
  artists: ['addedAt', '-addedAt', 'name', '-name'],
};

export function collectionRoot(kind: CollectionKind): string {
  return `userCollection${kind[0]!.toUpperCase()}${kind.slice(1)}`;
}

export function listCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.read');
    const userId = userIdParam(call, call.params[0]!);
    checkFilters(call.url, [], false);
    const sort = sortParam(call.url, COLLECTION_SORTS[kind], '-addedAt');
    const nodes = parseInclude(call.url, [`${collectionRoot(kind)}#items`], RELATIONSHIPS);
    const { catalog } = call.state;
    const label = (entry: CollectionEntry) =>
      kind === 'tracks' ? (catalog.tracks.get(entry.id)?.title ?? '') : kind === 'albums' ? (catalog.albums.get(entry.id)?.title ?? '') : (catalog.artists.get(entry.id)?.name ?? '');
    const entries = [...call.state.collectionOf(userId)[kind]];
    entries.sort((a, b) => (sort.endsWith('addedAt') ? a.addedAt.localeCompare(b.addedAt) : label(a).localeCompare(label(b))) || a.id.localeCompare(b.id));
    if (sort.startsWith('-')) entries.reverse();
    const { page, links } = paginate(entries, cursorOf(call.url), call.options.pageSize, call.url);
    const data: ResourceIdentifier[] = page.map((entry) => ({ id: entry.id, type: kind, meta: { addedAt: entry.addedAt } }));
    const document = new CompoundDocument(call.state, call.options.pageSize, []);
    document.expandPage(data, nodes, 'items');
    return { status: 200, body: withIncluded({ data, links }, document) };
  };
}

export function addToCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.write');
    const userId = userIdParam(call, call.params[0]!);
    const body = readBody(call);
    return idempotent(call, () => {
      const entries = batchData(body, [kind], false);
      const collection = call.state.collectionOf(userId);
      const exists = (id: string) => (kind === 'tracks' ? call.state.catalog.tracks.has(id) : kind === 'albums' ? call.state.catalog.albums.has(id) : call.state.catalog.artists.has(id));
      const skipped: { id: string; type: string; reason: string }[] = [];
      const added: CollectionEntry[] = [];
      for (const entry of entries) {
        if (!exists(entry.id)) skipped.push({ id: entry.id, type: kind, reason: 'NOT_FOUND' });
        else if (collection[kind].some((present) => present.id === entry.id) || added.some((present) => present.id === entry.id)) skipped.push({ id: entry.id, type: kind, reason: 'ALREADY_PRESENT' });
        else added.push({ id: entry.id, addedAt: call.state.timestamp() });
      }
      collection[kind].push(...added);
      return { status: 200, body: { data: added.map((entry) => ({ id: entry.id, type: kind, meta: { addedAt: entry.addedAt } })), links: { self: `/${collectionRoot(kind)}/${call.params[0]!}/relationships/items` }, meta: { skipped } } };
    });
  };
}

export function removeFromCollection(kind: CollectionKind): Handler {
  return (call) => {
    requireScope(call, 'collection.write');
    const userId = userIdParam(call, call.params[0]!);
    const body = readBody(call);
    return idempotent(call, () => {
      const remove = new Set(batchData(body, [kind], false).map((entry) => entry.id));
      const collection = call.state.collectionOf(userId);
      collection[kind] = collection[kind].filter((entry) => !remove.has(entry.id));
      return { status: 200, body: { links: { self: `/${collectionRoot(kind)}/${call.params[0]!}/relationships/items` } } };
    });
  };
}
