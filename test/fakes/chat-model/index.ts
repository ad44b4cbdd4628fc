import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedCatalog } from '../seed-catalog.ts';

/**
 * A stateful fake of an OpenAI-compatible chat-completions server (`POST /v1/chat/completions`),
 * the kind a user runs locally: Ollama, llama.cpp's server, LM Studio, vLLM. Its "model" proposes
 * songs of the shared seed catalogue whose words appear in the conversation, so the songs it names
 * exist on the fake providers. It also doubles as the demo model.
 *
 * Dialects, as the real servers differ:
 * - `llama.cpp`: enforces a JSON Schema given in the nested OpenAI form
 *   (`response_format: {type: "json_schema", json_schema: {schema}}`) and silently ignores other
 *   spellings (a flat `response_format.schema`).
 * - `ollama`: maps the nested form to its own `format`, and also takes `format` directly.
 * - `ignores-schema`: an older server that ignores `response_format` altogether and answers in
 *   free text, JSON mode included.
 * Without enforcement the model behaves like a small local model: it follows instructions
 * literally, overshoots the asked count and wraps JSON in a fenced block.
 */

export type ChatModelDialect = 'llama.cpp' | 'ollama' | 'ignores-schema';

export type ChatModelFault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'content'; content: string }
  | { kind: 'oversized'; bytes: number }
  | { kind: 'not-json' }
  | { kind: 'drop' };

export interface RecordedChatRequest {
  body: Record<string, unknown>;
  authorization: string | null;
  /** Whether a schema was enforced for this request. */
  enforced: boolean;
  /** The client closed the connection before the answer was complete (it gave up: a cancel, a timeout). */
  abandoned: boolean;
}

export interface FakeChatModel {
  /** Base URL of the API (`…/v1`), what `OPL_GENERATOR_URL` takes. */
  url: string;
  requests: RecordedChatRequest[];
  /** Faults served to the next requests, in order, one each. */
  failNext(...faults: ChatModelFault[]): void;
  /** Extra items an unenforced answer holds beyond the count asked (default 3). */
  setOvershoot(extra: number): void;
  close(): Promise<void>;
}

export interface FakeChatModelOptions {
  dialect?: ChatModelDialect;
  port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Songs the model may name (default: the seed catalogue's music). */
  songs?: readonly FakeSong[];
}

export interface FakeSong {
  title: string;
  artist: string;
  album: string;
  year: number;
}

function catalogueSongs(): FakeSong[] {
  const catalog = seedCatalog();
  return [...catalog.tracks.values()]
    .filter((track) => track.mediaType === 'track')
    .map((track) => {
      const album = catalog.albums.get(track.albumKey)!;
      return { title: track.title, artist: track.artistKeys.map((key) => catalog.artists.get(key)!.name).join(', '), album: album.title, year: Number(album.releaseDate.slice(0, 4)) };
    });
}

const words = (text: string) => new Set(text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2));

/** The songs whose title, artist or album share the most words with the conversation; ties by catalogue order. */
function propose(songs: readonly FakeSong[], conversation: string, count: number): FakeSong[] {
  const asked = words(conversation);
  const scored = songs.map((song, index) => {
    let score = 0;
    for (const word of words(`${song.title} ${song.artist} ${song.album}`)) if (asked.has(word)) score += 1;
    return { song, index, score };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, count).map((entry) => entry.song);
}

interface SchemaAsk {
  schema: Record<string, unknown> | null;
  jsonMode: boolean;
}

function schemaOf(body: Record<string, unknown>, dialect: ChatModelDialect): SchemaAsk {
  const format = body['response_format'] as { type?: unknown; json_schema?: { schema?: unknown }; schema?: unknown } | undefined;
  const nested = format?.type === 'json_schema' && format.json_schema && typeof format.json_schema.schema === 'object' ? (format.json_schema.schema as Record<string, unknown>) : null;
  const jsonMode = format?.type === 'json_object' || format?.type === 'json_schema';
  if (dialect === 'ignores-schema') return { schema: null, jsonMode: false };
  if (dialect === 'ollama' && body['format'] && typeof body['format'] === 'object') return { schema: body['format'] as Record<string, unknown>, jsonMode: true };
  return { schema: nested, jsonMode };
}

/** The count an instruction asks for ("at most 12 tracks", "12 songs"), else 10. */
function countIn(conversation: string): number {
  const match = /(?:at most|exactly|up to)?\s*(\d{1,3})\s+(?:songs|tracks)/i.exec(conversation);
  return match ? Number(match[1]) : 10;
}

const LIBRARY_HEADING = "The listener's library (id:";

/**
 * Library-grounded requests: the engine lists the listener's own tracks as `t3: Title — Artist
 * (…)` lines and asks for ids. The fake chooses the listed tracks sharing the most words with the
 * request (the conversation without the list itself), ties by list order; with an enforced schema
 * only ids of its `enum`.
 */
function chooseOffered(conversation: string, allowed: readonly unknown[] | null, count: number): { id: string; reason: string }[] {
  const at = conversation.indexOf(LIBRARY_HEADING);
  const request = conversation.slice(0, at);
  const listed = [...conversation.slice(at).matchAll(/^(t\d+): (.+)$/gm)].map((match) => ({ id: match[1]!, text: match[2]! }));
  const asked = words(request);
  const scored = listed
    .filter((entry) => allowed === null || allowed.includes(entry.id))
    .map((entry, index) => ({ entry, index, score: [...words(entry.text)].filter((word) => asked.has(word)).length }));
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, count).map(({ entry }) => ({ id: entry.id, reason: 'Matches the words of the request.' }));
}

function answer(body: Record<string, unknown>, ask: SchemaAsk, songs: readonly FakeSong[], overshoot: number): string {
  const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as { role?: unknown; content?: unknown }[];
  const conversation = messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const properties = (ask.schema?.['properties'] ?? {}) as Record<string, { enum?: unknown[]; maxItems?: number }>;
  // The engine's probe: a schema that allows one value, and an instruction that asks for another.
  if (ask.schema && properties['probe']?.enum) return JSON.stringify({ probe: properties['probe'].enum[0] });
  if (typeof lastUser?.content === 'string' && /Reply with exactly this JSON object/.test(lastUser.content)) {
    const literal = /\{.*\}/.exec(lastUser.content)?.[0] ?? '{}';
    return ask.jsonMode ? literal : `Sure! Here it is:\n${literal}`;
  }
  if (conversation.includes(LIBRARY_HEADING)) {
    const items = (properties['tracks'] as { items?: { properties?: { id?: { enum?: unknown[] } } } } | undefined)?.items?.properties?.id?.enum ?? null;
    if (ask.schema) return JSON.stringify({ tracks: chooseOffered(conversation, items, properties['tracks']?.maxItems ?? countIn(conversation)) });
    const tracks = chooseOffered(conversation, null, countIn(conversation) + overshoot);
    return ask.jsonMode ? JSON.stringify({ tracks }) : `Here are my picks:\n\`\`\`json\n${JSON.stringify({ tracks }, null, 2)}\n\`\`\``;
  }
  if (ask.schema) {
    const max = properties['tracks']?.maxItems ?? countIn(conversation);
    const tracks = propose(songs, conversation, max).map((song) => ({ title: song.title, artist: song.artist, album: song.album, release_year: song.year, reason: 'Matches the words of the request.' }));
    return JSON.stringify({ tracks });
  }
  const tracks = propose(songs, conversation, countIn(conversation) + overshoot).map((song) => ({ title: song.title, artist: song.artist, year: song.year }));
  return ask.jsonMode ? JSON.stringify({ tracks }) : `Here is your playlist:\n\`\`\`json\n${JSON.stringify({ tracks }, null, 2)}\n\`\`\`\nEnjoy!`;
}

function completion(model: unknown, content: string): Record<string, unknown> {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof model === 'string' ? model : 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeChatModel(options: FakeChatModelOptions = {}): Promise<FakeChatModel> {
  const dialect = options.dialect ?? 'llama.cpp';
  const songs = options.songs ?? catalogueSongs();
  const requests: RecordedChatRequest[] = [];
  const faults: ChatModelFault[] = [];
  let overshoot = 3;

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    response.end(text);
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url === '/v1/models') return send(response, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] });
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      const authorization = request.headers.authorization ?? null;
      if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) return send(response, 401, { error: { message: 'invalid api key', type: 'invalid_request_error' } });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(request)) as Record<string, unknown>;
      } catch {
        return send(response, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } });
      }
      if (!Array.isArray(body['messages'])) return send(response, 400, { error: { message: "'messages' is required", type: 'invalid_request_error' } });
      const ask = schemaOf(body, dialect);
      const recorded: RecordedChatRequest = { body, authorization, enforced: ask.schema !== null, abandoned: false };
      requests.push(recorded);
      response.on('close', () => {
        if (!response.writableFinished) recorded.abandoned = true;
      });
      const fault = faults.shift();
      if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
      if (fault?.kind === 'drop') return request.socket.destroy();
      if (fault?.kind === 'status') return send(response, fault.status, fault.body ?? { error: { message: 'fault', type: 'server_error' } }, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
      if (fault?.kind === 'not-json') return send(response, 200, '<html>Bad gateway</html>');
      if (fault?.kind === 'oversized') return send(response, 200, completion(body['model'], 'x'.repeat(fault.bytes)));
      const content = fault?.kind === 'content' ? fault.content : answer(body, ask, songs, overshoot);
      if (response.destroyed) return;
      send(response, 200, completion(body['model'], content));
    })().catch(() => {
      if (!response.headersSent) send(response, 500, { error: { message: 'internal error', type: 'server_error' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (...next) => void faults.push(...next),
    setOvershoot: (extra) => void (overshoot = extra),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
