import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { libraryChoicesJsonSchema, readLibraryChoices, type ReadChoices } from './library-choices.ts';
import type { OfferedTrack } from './library-offer.ts';
import { intentsJsonSchema, readIntents, type ReadIntents } from './track-intents.ts';

/**
 * A client of any OpenAI-compatible chat-completions server the admin configured (Ollama,
 * llama.cpp's server, LM Studio, vLLM, LocalAI). Structured output is asked for in the nested
 * OpenAI form, `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`:
 * Ollama maps it to its `format`, llama.cpp's server honours this spelling and silently ignores
 * others. Whether the server really enforces it is learned once with a control request (`probe`);
 * where it does not, the client asks for JSON mode and relies on strict validation plus one
 * bounded repair request.
 *
 * Privacy: the messages (the user's prompt among them) and the model's answers never go into an
 * error message or a log line; errors say what happened, not what was said.
 */

export interface ModelEndpoint {
  /** Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  url: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  /** Largest response body read from the server, in bytes. */
  maxOutputBytes: number;
}

export type ModelErrorCode = 'model_unreachable' | 'model_timeout' | 'model_rate_limited' | 'model_failed' | 'model_output_invalid' | 'model_output_too_large' | 'model_cancelled';

export class ModelError extends Error {
  readonly code: ModelErrorCode;
  /** Seconds the server asked to wait (429 Retry-After), when it did. */
  readonly retryAfterS: number | null;

  constructor(code: ModelErrorCode, message: string, retryAfterS: number | null = null) {
    super(message);
    this.name = 'ModelError';
    this.code = code;
    this.retryAfterS = retryAfterS;
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type OutputMode = 'json_schema' | 'json_object';

export interface ProposedIntents extends ReadIntents {
  mode: OutputMode;
  /** True when the first answer was unusable and the repair request's answer was read. */
  repaired: boolean;
}

export interface ChosenFromLibrary extends ReadChoices {
  mode: OutputMode;
  repaired: boolean;
}

/** A Retry-After this short is waited out once; a longer one is the caller's to report. */
const INLINE_RETRY_AFTER_S = 10;
const SERVER_ERROR_RETRY_MS = 1_000;
/** What of a broken answer is shown back to the model in the repair request. */
const REPAIR_ECHO_CHARS = 4_000;
const PROBE_VALUE = 'opl-schema-ok';

const PROBE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['probe'],
  properties: { probe: { type: 'string', enum: [PROBE_VALUE] } },
};

function retryAfterSeconds(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The JSON inside a model's text: the whole text, else its first fenced block, else its outermost braces or brackets. */
export function jsonInText(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) attempts.push(fenced[1].trim());
  for (const [open, close] of [['{', '}'], ['[', ']']] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start >= 0 && end > start) attempts.push(text.slice(start, end + 1));
  }
  for (const attempt of attempts) {
    try {
      return JSON.parse(attempt) as unknown;
    } catch {
      // the next reading
    }
  }
  return undefined;
}

export class ChatModelClient {
  readonly #endpoint: ModelEndpoint;
  #probed: Promise<boolean> | undefined;

  constructor(endpoint: ModelEndpoint) {
    this.#endpoint = endpoint;
  }

  get model(): string {
    return this.#endpoint.model;
  }

  /**
   * Whether the server enforces a JSON Schema: a control request asks for an answer that the
   * schema forbids; a server that enforces it answers with the schema's only allowed value.
   * Learned once per client; a failed probe is not remembered, so the next request tries again.
   */
  enforcesSchema(signal?: AbortSignal): Promise<boolean> {
    this.#probed ??= this.#probe(signal).catch((error: unknown) => {
      this.#probed = undefined;
      throw error;
    });
    return this.#probed;
  }

  async #probe(signal?: AbortSignal): Promise<boolean> {
    const content = await this.#complete(
      [
        { role: 'system', content: 'You answer with JSON only.' },
        { role: 'user', content: 'Reply with exactly this JSON object and nothing else: {"answer": 42}' },
      ],
      { type: 'json_schema', json_schema: { name: 'opl_probe', schema: PROBE_SCHEMA, strict: true } },
      signal,
    );
    const answer = jsonInText(content) as { probe?: unknown } | undefined;
    return answer !== null && typeof answer === 'object' && Object.keys(answer).length === 1 && answer.probe === PROBE_VALUE;
  }

  /**
   * Asks for at most `count` track intents. With an enforcing server the schema carries the
   * count; otherwise JSON mode, with the schema in the instructions. An answer that is not JSON
   * or holds no usable song gets one repair request; a second failure is `model_output_invalid`.
   */
  async proposeIntents(messages: readonly ChatMessage[], count: number, signal?: AbortSignal): Promise<ProposedIntents> {
    const { read, mode, repaired } = await this.#ask(
      messages,
      { name: 'opl_track_intents', schema: intentsJsonSchema(count) },
      (content) => {
        const intents = readIntents(jsonInText(content), count);
        return intents && intents.intents.length > 0 ? intents : null;
      },
      `That answer could not be used. Answer again with only a JSON object of the form {"tracks": [{"title": ..., "artist": ..., "album": ..., "release_year": ..., "reason": ...}]}, at most ${count} tracks, each a real song.`,
      signal,
    );
    return { ...read, mode, repaired };
  }

  /**
   * Library-grounded mode: asks the model to choose at most `count` of the offered tracks, by id.
   * The schema's `enum` holds the offered ids; an answer with no chosen offered id at all gets one
   * repair request, and the repaired answer is kept whatever it holds (its discarded choices become
   * open slots with the reason); an answer that is still no list is `model_output_invalid`.
   */
  async chooseFromLibrary(messages: readonly ChatMessage[], offered: ReadonlyMap<string, OfferedTrack>, count: number, signal?: AbortSignal): Promise<ChosenFromLibrary> {
    const readAnswer = (content: string) => readLibraryChoices(jsonInText(content), offered, count);
    let fallback: ReadChoices | null = null;
    const { read, mode, repaired } = await this.#ask(
      messages,
      { name: 'opl_library_choices', schema: libraryChoicesJsonSchema([...offered.keys()], count) },
      (content, attempt) => {
        const choices = readAnswer(content);
        if (attempt === 1 && choices && choices.slots.length > 0) fallback = choices;
        return choices && choices.slots.some((slot) => slot.kind === 'chosen') ? choices : null;
      },
      `That answer could not be used. Answer again with only a JSON object of the form {"tracks": [{"id": ..., "reason": ...}]}, at most ${count} tracks, each id one of the listed ids (t1, t2, ...).`,
      signal,
      () => fallback,
    );
    return { ...read, mode, repaired };
  }

  /** A structured request with one bounded repair: `read` returns null for an unusable answer. */
  async #ask<R>(
    messages: readonly ChatMessage[],
    asked: { name: string; schema: Record<string, unknown> },
    read: (content: string, attempt: number) => R | null,
    repairText: string,
    signal?: AbortSignal,
    lastResort: () => R | null = () => null,
  ): Promise<{ read: R; mode: OutputMode; repaired: boolean }> {
    const mode: OutputMode = (await this.enforcesSchema(signal)) ? 'json_schema' : 'json_object';
    const format = mode === 'json_schema' ? { type: 'json_schema', json_schema: { name: asked.name, schema: asked.schema, strict: true } } : { type: 'json_object' };
    const conversation: ChatMessage[] =
      mode === 'json_schema' ? [...messages] : [...messages, { role: 'system', content: `Answer with one JSON object that matches this JSON Schema, and nothing else:\n${JSON.stringify(asked.schema)}` }];
    const first = await this.#complete(conversation, format, signal);
    const firstRead = read(first, 0);
    if (firstRead) return { read: firstRead, mode, repaired: false };
    const repair: ChatMessage[] = [...conversation, { role: 'assistant', content: first.slice(0, REPAIR_ECHO_CHARS) }, { role: 'user', content: repairText }];
    const second = read(await this.#complete(repair, format, signal), 1) ?? lastResort();
    if (second) return { read: second, mode, repaired: true };
    throw new ModelError('model_output_invalid', 'The model answered twice without a usable list of songs (not JSON, or no usable song).');
  }

  /** One chat completion, its first choice's text; waits once through a short 429 and retries one 5xx. */
  async #complete(messages: readonly ChatMessage[], responseFormat: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    const body = JSON.stringify({ model: this.#endpoint.model, messages, response_format: responseFormat, stream: false, temperature: 0.7 });
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#post(body, signal);
      if (outcome.kind === 'content') return outcome.content;
      if (outcome.kind === 'rate_limited') {
        if (attempt === 0 && outcome.retryAfterS !== null && outcome.retryAfterS <= INLINE_RETRY_AFTER_S) {
          await this.#wait(outcome.retryAfterS * 1000, signal);
          continue;
        }
        throw new ModelError('model_rate_limited', `The model server is busy (429)${outcome.retryAfterS !== null ? `; it asks to wait ${outcome.retryAfterS} s` : ''}.`, outcome.retryAfterS);
      }
      if (attempt === 0) {
        await this.#wait(SERVER_ERROR_RETRY_MS, signal);
        continue;
      }
      throw new ModelError('model_failed', `The model server failed twice (HTTP ${outcome.status}).`);
    }
  }

  async #wait(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
    } catch {
      throw new ModelError('model_cancelled', 'The generation was cancelled.');
    }
  }

  async #post(body: string, signal?: AbortSignal): Promise<{ kind: 'content'; content: string } | { kind: 'rate_limited'; retryAfterS: number | null } | { kind: 'server_error'; status: number }> {
    const { url, apiKey, timeoutMs, maxOutputBytes } = this.#endpoint;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
    let text: string;
    let status: number;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await request(`${url.replace(/\/+$/, '')}/chat/completions`, { method: 'POST', headers, body, signal: combined });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      // Undici reports a body destroyed before its end as an error event; nothing waits for it.
      response.body.on('error', () => undefined);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxOutputBytes) {
        response.body.destroy();
        throw new ModelError('model_output_too_large', `The model's answer is larger than ${maxOutputBytes} bytes (OPL_GENERATOR_MAX_OUTPUT_BYTES).`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxOutputBytes) {
          response.body.destroy();
          throw new ModelError('model_output_too_large', `The model's answer is larger than ${maxOutputBytes} bytes (OPL_GENERATOR_MAX_OUTPUT_BYTES).`);
        }
        chunks.push(chunk);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (error) {
      if (error instanceof ModelError) throw error;
      if (signal?.aborted) throw new ModelError('model_cancelled', 'The generation was cancelled.');
      if (timeout.aborted) throw new ModelError('model_timeout', `The model did not answer within ${timeoutMs} ms (OPL_GENERATOR_TIMEOUT_MS).`);
      // The cause's code only (ECONNREFUSED, ENOTFOUND, …): never a message that could quote a request.
      const code = (error as { code?: unknown }).code;
      throw new ModelError('model_unreachable', `The model server at the configured OPL_GENERATOR_URL could not be reached${typeof code === 'string' ? ` (${code})` : ''}.`);
    }
    if (status === 429) return { kind: 'rate_limited', retryAfterS: retryAfterSeconds(retryAfter) };
    if (status >= 500) return { kind: 'server_error', status };
    if (status === 401 || status === 403) throw new ModelError('model_failed', `The model server refused the request (HTTP ${status}): check OPL_GENERATOR_API_KEY.`);
    if (status === 404) throw new ModelError('model_failed', 'The model server has no such model or path (HTTP 404): check OPL_GENERATOR_URL (it ends before /chat/completions, e.g. http://127.0.0.1:11434/v1) and OPL_GENERATOR_MODEL.');
    if (status < 200 || status >= 300) throw new ModelError('model_failed', `The model server refused the request (HTTP ${status}).`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ModelError('model_output_invalid', 'The model server answered with something that is not a chat completion (not JSON).');
    }
    const content = (parsed as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ModelError('model_output_invalid', 'The model server answered without a message (no choices[0].message.content).');
    return { kind: 'content', content };
  }
}
