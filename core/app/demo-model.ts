import type { Logger } from '../logging/logger.ts';

/**
 * Demo mode's built-in model for the playlist generator: the fake OpenAI-compatible server of the
 * test suite, whose "model" proposes songs of the demo catalogue from the words of a request.
 * Started only in demo mode and only when no real model is configured; labelled demo everywhere.
 */
export interface DemoModel {
  readonly url: string;
  readonly model: string;
  close(): Promise<void>;
}

export async function startDemoModel(logger: Logger): Promise<DemoModel> {
  const fake = await (await import('../../test/fakes/chat-model/index.ts')).startFakeChatModel({ dialect: 'llama.cpp' });
  logger.warn('DEMO MODE: the playlist generator uses a built-in demo model that picks songs of the demo catalogue');
  return { url: fake.url, model: 'opl-demo-model', close: () => fake.close() };
}
