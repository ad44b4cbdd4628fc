import { at, nonEmpty, records, rendererOf, type JsonRecord } from './json-read.ts';
import type { ProviderPage } from './page-cursor.ts';

/**
 * Where the rows are in InnerTube answers. Playlist pages hold a `musicPlaylistShelfRenderer`
 * whose last item may be a `continuationItemRenderer` (the next page is a `browse` with
 * `continuation`, answered by an `appendContinuationItemsAction`); library grids and shelves carry
 * the legacy `continuations[].nextContinuationData` (next page: `browse?ctoken=…`, answered in
 * `continuationContents`). Both forms are read wherever they occur.
 */

function sectionContents(answer: JsonRecord): JsonRecord[] {
  const twoColumn = at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'secondaryContents', 'sectionListRenderer', 'contents');
  if (Array.isArray(twoColumn)) return records(twoColumn);
  return records(at(answer, 'contents', 'singleColumnBrowseResultsRenderer', 'tabs', 0, 'tabRenderer', 'content', 'sectionListRenderer', 'contents'));
}

/** The first shelf of one of these renderer kinds in a browse answer (also inside item sections). */
export function findShelf(answer: JsonRecord, kinds: readonly string[]): JsonRecord | null {
  for (const section of sectionContents(answer)) {
    const renderer = rendererOf(section);
    if (!renderer) continue;
    if (kinds.includes(renderer.name)) return renderer.body;
    if (renderer.name === 'itemSectionRenderer') {
      for (const inner of records(renderer.body['contents'])) {
        const nested = rendererOf(inner);
        if (nested && kinds.includes(nested.name)) return nested.body;
      }
    }
  }
  return null;
}

function legacyToken(holder: unknown): string | null {
  return nonEmpty(at(holder, 'continuations', 0, 'nextContinuationData', 'continuation'));
}

/** Rows of a list, splitting off a trailing continuation item. */
export function splitRows(items: unknown): ProviderPage<JsonRecord> {
  const rows: JsonRecord[] = [];
  let next: string | null = null;
  for (const item of records(items)) {
    const renderer = rendererOf(item);
    if (!renderer) continue;
    if (renderer.name === 'continuationItemRenderer') next = nonEmpty(at(renderer.body, 'continuationEndpoint', 'continuationCommand', 'token'));
    else rows.push(item);
  }
  return { items: rows, next };
}

/** A shelf's rows (`contents` or a grid's `items`) and the token of the following page. */
export function shelfPage(shelf: JsonRecord | null): ProviderPage<JsonRecord> {
  if (!shelf) return { items: [], next: null };
  const page = splitRows(shelf['contents'] ?? shelf['items']);
  return { items: page.items, next: page.next ?? legacyToken(shelf) };
}

/** A continuation answer in either form. */
export function continuationPage(answer: JsonRecord): ProviderPage<JsonRecord> {
  const appended = at(answer, 'onResponseReceivedActions', 0, 'appendContinuationItemsAction', 'continuationItems');
  if (Array.isArray(appended)) return splitRows(appended);
  const contents = rendererOf(answer['continuationContents']);
  return contents ? shelfPage(contents.body) : { items: [], next: null };
}
