import type { Locator, Page } from 'playwright-core';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';

/** Songs Spotify's fake has, to fill the Export page tests' playlists. */
export const SPOTIFY_SONGS = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));

/** Text as a person reads it: runs of white space are one space. */
export const normalise = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The parts of the Export page its tests look at; `page` is read when a part is asked for (tests open it in beforeAll). */
export function exportPageParts(page: () => Page) {
  const exportPage = (): Locator => page().locator('opl-export-page');
  return {
    exportPage,
    /** A playlist row of the selection step. */
    collection: (name: string): Locator => exportPage().locator('opl-selection-step [data-testid="collection"]').filter({ hasText: name }),
    downloadButton: (): Locator => exportPage().locator('#download'),
    failure: (): Locator => exportPage().locator('[data-testid="export-failure"]'),
    announcement: (): Locator => exportPage().locator('[data-testid="announcement"]'),
  };
}
