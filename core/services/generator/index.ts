export { ChatModelClient, ModelError, type ChatMessage, type ModelEndpoint, type ModelErrorCode } from './chat-model.client.ts';
export { GENERATOR_LIMITS, generationSpecSchema, generatorControlsSchema, type GenerationSpec, type GeneratorControls, type PreferenceSummary } from './generation-request.ts';
export { GeneratorError, GeneratorService, type CreateDraftRequest, type DraftItemView, type DraftView, type GeneratorConfigView, type RegenerateRequest } from './generator.service.ts';
export { GENERATION_EVENT_BATCH, GENERATION_PROGRESS_CHANNEL, type GenerationEvent } from './generator-events.ts';
export type { GenerationOutcome } from './draft-generation.ts';
export { GeneratedDraftSource } from './draft-source.ts';
export { LIBRARY_OFFER, librarySourcesSchema, type Grounding, type LibrarySources } from './library-offer.ts';
