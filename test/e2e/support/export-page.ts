import type { Locator, Page } from 'playwright-core';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';

/** Songs Spotify's fake has, to fill the Export page tests' playlists. */
export const SPOTIFY_SONGS = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));

/** Text as a person reads it: runs of white space are one space. */
export const normalise = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The parts of the Export page its tests look at; `page` is read when a part is asked for (tests open it in beforeAll). */
export function exportPageParts(page: () => Page) {
  const exportPage = (): Locator => page().locator('opl-export-page');
  /** A playlist row of the selection step. */
  const collection = (name: string): Locator => exportPage().locator('opl-selection-step [data-testid="collection"]').filter({ hasText: name });
  return {
    exportPage,
    collection,
    /** Opens the Export page on the connected Spotify account and waits for `playlist`'s row. */
    openOnSpotify: async (baseUrl: string, playlist: string): Promise<void> => {
      await page().goto(`${baseUrl}/#/export`);
      await page().getByRole('heading', { level: 1, name: 'Export', exact: true }).waitFor();
      await exportPage().getByRole('group', { name: 'Export from' }).getByRole('radio', { name: / on Spotify$/ }).first().check();
      await collection(playlist).waitFor({ timeout: 30_000 });
    },
    downloadButton: (): Locator => exportPage().locator('#download'),
    failure: (): Locator => exportPage().locator('[data-testid="export-failure"]'),
    announcement: (): Locator => exportPage().locator('[data-testid="announcement"]'),
  };
}
