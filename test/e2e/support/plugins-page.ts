import type { Page } from 'playwright-core';

/** What the Plugins page tests read the same way against the real engine and against the fake admin routes. */
export const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

export const pluginRowIds = (page: Page, table: 'loaded-table' | 'refused-table') =>
  page.locator(`[data-testid="${table}"] tbody tr[data-plugin]`).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-plugin')));

export const pageHeading = (page: Page) => page.getByRole('heading', { level: 1 });
