import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeChatModel, type FakeChatModel } from '../../fakes/chat-model/index.ts';
import { GeneratorError, type DraftView } from '../../../core/services/generator/index.ts';
import { LOCAL_OWNER_ID } from '../../../core/services/owner/owner.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * Drafts are private to their owner. Self-hosting has one owner today (`local`); hosted users come
 * later, so the service is driven here with a second owner id: nothing of the first owner's draft
 * is readable, listable, editable, confirmable or followable by it.
 */

const catalog = seedCatalog();
const onTidal = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal') && !track.explicit);
const song = (track: (typeof onTidal)[number]) => ({ title: track.title, artist: catalog.artists.get(track.artistKeys[0]!)!.name, album: null, release_year: null, reason: null });
const OTHER = 'another-owner';

let h: MigrationHarness;
let model: FakeChatModel;
let draft: DraftView;

beforeAll(async () => {
  model = await startFakeChatModel({ dialect: 'llama.cpp' });
  h = await startMigrationHarness({ spotifyLibrary: {}, tidalLibrary: {}, env: { OPL_GENERATOR_URL: model.url, OPL_GENERATOR_MODEL: 'fake-model' } });
  model.failNext({ kind: 'content', content: JSON.stringify({ probe: 'opl-schema-ok' }) }, { kind: 'content', content: JSON.stringify({ tracks: onTidal.slice(0, 2).map(song) }) });
  draft = await h.app.app.services.generator.createDraft(LOCAL_OWNER_ID, { target_provider: 'tidal', target_account_id: h.tidalAccount, generation: { prompt: 'mine', controls: (await import('../../../core/services/generator/index.ts')).generatorControlsSchema.parse({ track_count: 2 }) } }, null);
}, 300_000);

afterAll(async () => {
  await h?.close();
  await model?.close();
});

async function refused(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return error instanceof GeneratorError ? error.code : (error as { code?: string }).code ?? String(error);
  }
  return 'allowed';
}

describe('drafts of one owner', () => {
  it('are invisible to another owner: not read, listed, edited, searched, confirmed, cancelled, regenerated, deleted or followed', async () => {
    const generator = h.app.app.services.generator;
    const item = draft.items[0]!;
    expect(draft.items.length).toBeGreaterThan(0);
    expect(await refused(generator.draft(OTHER, draft.id))).toBe('draft_not_found');
    expect((await generator.drafts(OTHER)).map((entry) => entry.id)).not.toContain(draft.id);
    expect(await refused(generator.rename(OTHER, draft.id, 'stolen'))).toBe('draft_not_found');
    expect(await refused(generator.updateItem(OTHER, draft.id, item.id, { removed: true }))).toBe('draft_not_found');
    expect(await refused(generator.reorder(OTHER, draft.id, [item.id]))).toBe('draft_not_found');
    expect(await refused(generator.replaceItem(OTHER, draft.id, item.id, { target_uri: item.target_uri! }))).toBe('draft_not_found');
    expect(await refused(generator.search(OTHER, draft.id, 'anything'))).toBe('draft_not_found');
    expect(await refused(generator.addFromSearch(OTHER, draft.id, 'anything', item.target_uri!))).toBe('draft_not_found');
    expect(await refused(generator.confirm(OTHER, draft.id, true))).toBe('draft_not_found');
    expect(await refused(generator.cancel(OTHER, draft.id))).toBe('draft_not_found');
    expect(await refused(generator.regenerate(OTHER, draft.id, { scope: 'all', prompt: 'x' }, null))).toBe('draft_not_found');
    expect(await refused(generator.deleteDraft(OTHER, draft.id))).toBe('draft_not_found');
    expect(await generator.eventsAfter(OTHER, draft.id, 0)).toEqual([]);

    // The owner's draft is untouched by all of that.
    const mine = await generator.draft(LOCAL_OWNER_ID, draft.id);
    expect(mine).toMatchObject({ name: draft.name, status: 'draft', migration_job_id: null });
    expect(mine.items.map((entry) => [entry.id, entry.status])).toEqual(draft.items.map((entry) => [entry.id, entry.status]));
    expect((await generator.eventsAfter(LOCAL_OWNER_ID, draft.id, 0)).length).toBeGreaterThan(0);
  });
});
