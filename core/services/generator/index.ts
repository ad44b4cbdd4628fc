export { ChatModelClient, ModelError, type ChatMessage, type ModelEndpoint, type ModelErrorCode } from './chat-model.client.ts';
export { GENERATOR_LIMITS, generationSpecSchema, generatorControlsSchema, type GenerationSpec, type GeneratorControls, type PreferenceSummary } from './generation-request.ts';
export { GeneratorError, GeneratorService, type CreateDraftRequest, type DraftItemView, type DraftView, type GeneratorConfigView } from './generator.service.ts';
export { GeneratedDraftSource } from './draft-source.ts';
