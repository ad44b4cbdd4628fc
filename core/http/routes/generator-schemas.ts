import { z } from 'zod';
import { generationSpecSchema, generatorControlsSchema, GENERATOR_LIMITS, LIBRARY_OFFER, librarySourcesSchema, type Grounding } from '../../services/generator/index.ts';
import { jobViewSchema } from './migrations.routes.ts';

/** Request and answer schemas of `/api/generator` (the OpenAPI document is generated from them). */

const usePreferences = z
  .boolean()
  .default(false)
  .describe("Opt in: send the model a summary computed here from your connected library and imports (top artists and genres with counts; no song list, no account data). Off unless true.");

const grounding = z
  .enum(['open', 'library'])
  .describe(
    `\`open\`: the model names any song and each is searched on the target. \`library\`: it chooses only among songs you already have (cached playlist reads of your connected accounts, imports, snapshots: see \`library_sources\`), offered to it as a sampled list of at most ${LIBRARY_OFFER.maxOffered} local ids with title and artist; the list is computed here and sent to the model only in this mode.`,
  );
const librarySources = librarySourcesSchema.describe('Library-grounded mode: which of your songs may be offered (all sources when absent)');

/** The grounding of a request body: open unless it says `library` (then with its sources). */
export function groundingOfBody(body: { grounding?: 'open' | 'library' | undefined; library_sources?: z.output<typeof librarySourcesSchema> | undefined }): Grounding | undefined {
  if (body.grounding === undefined) return undefined;
  return { mode: body.grounding, sources: body.library_sources ?? librarySourcesSchema.parse({}) };
}

export const limitsSchema = z.object({ max_prompt_chars: z.number().int(), max_output_chars: z.number().int(), max_tracks: z.number().int() });
export const configSchema = z
  .object({ available: z.boolean(), backend: z.literal('openai_compatible'), model: z.string(), demo: z.boolean(), message: z.string(), limits: limitsSchema })
  .meta({ id: 'GeneratorConfig' });

export const intentSchema = z.object({ title: z.string(), artist: z.string(), album: z.string().nullable(), release_year: z.number().int().nullable(), reason: z.string().nullable() });
export const signalSchema = z.object({ signal: z.string(), value: z.number(), weight: z.number(), note: z.string() });
export const candidateSchema = z
  .object({
    uri: z.string(),
    id: z.string(),
    title: z.string(),
    artist: z.string(),
    album: z.string().nullable(),
    duration_s: z.number().nullable(),
    isrc: z.string().nullable(),
    explicit: z.boolean().nullable(),
    confidence: z.number(),
    reason: z.string(),
    signals: z.array(signalSchema),
  })
  .meta({ id: 'GenerationCandidate' });
export const itemSchema = z
  .object({
    id: z.uuid(),
    position: z.number().int(),
    status: z.enum(['pending', 'resolved', 'unresolved', 'removed']).describe('`pending`: not searched yet; `removed`: by you, or left out by the engine with the reason'),
    approved: z.boolean(),
    target_uri: z.string().nullable(),
    title: z.string(),
    artist: z.string(),
    album: z.string().nullable(),
    duration_s: z.number().int().nullable(),
    isrc: z.string().nullable(),
    explicit: z.boolean().nullable(),
    confidence: z.number().nullable(),
    reason: z.string().nullable(),
    signals: z.array(signalSchema).describe("The scorer's signals for the chosen track: why its confidence is what it is"),
    intent: intentSchema.nullable(),
    candidates: z.array(candidateSchema).describe("The target's other ranked results for the song: what replace offers"),
  })
  .meta({ id: 'GenerationDraftItem' });

export const draftFields = {
  id: z.uuid(),
  name: z.string(),
  status: z.string(),
  target_provider: z.string(),
  target_account_id: z.string(),
  controls: z.record(z.string(), z.unknown()),
  generation: z.record(z.string(), z.unknown()),
  migration_job_id: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
  counts: z.object({ pending: z.number().int(), resolved: z.number().int(), unresolved: z.number().int(), approved: z.number().int(), duration_s: z.number() }),
};
export const draftSchema = z.object({ ...draftFields, items: z.array(itemSchema) }).meta({ id: 'GenerationDraft' });
export const draftSummarySchema = z.object(draftFields).meta({ id: 'GenerationDraftSummary' });

export const createSchema = z
  .object({
    target_provider: z.string().min(1).max(100),
    target_account_id: z.uuid(),
    generation: generationSpecSchema,
    use_preferences: usePreferences,
    grounding: grounding.default('open'),
    library_sources: librarySources.optional(),
  })
  .strict()
  .meta({ id: 'CreateGenerationDraft' });

export const renameBody = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export const itemBody = z
  .object({ approved: z.boolean().optional(), removed: z.boolean().optional() })
  .strict()
  .refine((body) => body.approved !== undefined || body.removed !== undefined, 'say what to change: approved and/or removed');
export const itemParams = z.object({ draft_id: z.uuid(), item_id: z.uuid() });
export const searchBody = z.object({ text: z.string().trim().min(1).max(500) }).strict();
export const searchResult = z.object({ uri: z.string(), title: z.string(), artist: z.string(), album: z.string().nullable(), duration_s: z.number().nullable(), explicit: z.boolean().nullable() }).meta({ id: 'GeneratorSearchResult' });
export const addBody = z.object({ text: z.string().trim().min(1).max(500), target_uri: z.string().min(1).max(2_000) }).strict();
export const reorderBody = z.object({ item_ids: z.array(z.uuid()).min(1).max(1_000) }).strict();
export const confirmBody = z.object({ acknowledge_warnings: z.boolean().default(false) }).strict().meta({ id: 'ConfirmGenerationDraft' });
export const confirmation = z.object({ created: z.boolean(), job: jobViewSchema }).meta({ id: 'GenerationConfirmation' });


export const regenerateBody = z
  .object({
    scope: z.enum(['all', 'open_slots']).describe('`all`: every song anew; `open_slots`: only the unresolved and removed songs, refilled in place'),
    prompt: z.string().trim().min(1).max(GENERATOR_LIMITS.maxPromptChars).describe('Asked again: the engine never stored it'),
    controls: generatorControlsSchema.optional().describe("The draft's own controls when absent"),
    use_preferences: usePreferences,
    grounding: grounding.optional().describe("The draft's own grounding when absent (a new sampling seed each time unless `library_sources.seed` is given)"),
    library_sources: librarySources.optional(),
  })
  .strict()
  .meta({ id: 'RegenerateGenerationDraft' });
export const replaceBody = z
  .object({
    target_uri: z.string().min(1).max(2_000),
    text: z.string().trim().min(1).max(500).optional().describe("A search of the target that returns the track; without it, the track must be one of the item's candidates"),
  })
  .strict();
export const waitQuery = z.object({
  wait: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true')
    .describe('`false`: answer 202 with the draft at once (`generating`) and follow `/events`; `true`: answer when the draft is complete'),
});
