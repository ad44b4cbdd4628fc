/**
 * Source of the code that runs inside every isolate before the plugin. It receives the host's
 * references as closure arguments, removes the few non-language globals an isolate starts with,
 * and returns four entry points for the host: `install` (check the module's default export),
 * `dispatch` (run one operation), `serialize` (stream a format plugin's chunks) and
 * `serializePlaylist` (drive a format plugin's playlist writer with slices of tracks pulled from
 * the host, streaming its chunks). `dispatch` and the serializers answer with one string: "1" and the result's JSON, or "0" and a description of what
 * was thrown — the host then parses the result only where it needs an object.
 *
 * Nothing here is trusted by the host: a plugin shares this realm and could tamper with it, but
 * everything that leaves the isolate is a JSON string or a copied byte array that the host
 * validates. What the prelude protects is the plugin's own convenience, not the engine.
 *
 * Closure arguments: $0 fetch (Reference to an async host function), $1 log, $2 decodeText,
 * $3 encodeText, $4 now (sync Callbacks), $5 chunk sink (Reference to an async host function),
 * $6 the manifest's plugin kind, $7 the next slice of tracks (Reference to an async host function).
 */
export const PRELUDE_SOURCE = String.raw`
'use strict';
const hostFetch = $0, hostLog = $1, hostDecode = $2, hostEncode = $3, hostNow = $4, hostChunk = $5, expectedKind = $6, hostSlice = $7;
const global = globalThis;
const parse = JSON.parse, stringify = JSON.stringify;
const freeze = Object.freeze, keys = Object.keys, create = Object.create;
const ErrorCtor = Error, TypeErrorCtor = TypeError, StringCtor = String, U8 = Uint8Array;
const asyncIterator = Symbol.asyncIterator, iterator = Symbol.iterator;
const MAX_LOGS = 100;

// An isolate starts with a few engine extras beyond the language: none is useful to a plugin and
// some (shared memory, weak-reference callbacks running outside any call) only widen the surface.
for (const name of ['console', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef']) {
  try { delete global[name]; } catch { /* non-configurable: leave it */ }
}

let operations = null;
let receiver = null;

function fail(failure, message) {
  return stringify({ ok: false, failure, message });
}

function install(namespace) {
  try {
    const definition = namespace.default;
    if (definition === null || typeof definition !== 'object') return fail('not_a_definition', 'the default export is not a plugin definition (use definePlugin)');
    if (definition.mark !== 'opl.plugin/v1') return fail('not_a_definition', 'the default export is not marked as a plugin definition (use definePlugin)');
    if (definition.kind !== expectedKind) return fail('kind_mismatch', 'the plugin defines a ' + StringCtor(definition.kind) + ' plugin but its manifest says ' + expectedKind);
    const ops = definition.operations;
    if (ops === null || typeof ops !== 'object') return fail('not_a_definition', 'the plugin definition has no operations');
    const table = create(null);
    for (const name of keys(ops)) {
      const fn = ops[name];
      if (typeof fn === 'function') table[name] = fn;
    }
    operations = table;
    receiver = ops;
    return stringify({ ok: true, operations: keys(table) });
  } catch (error) {
    return fail('not_a_definition', 'reading the plugin definition failed: ' + describeMessage(error));
  }
}

function describeMessage(error) {
  try {
    if (error instanceof ErrorCtor) return StringCtor(error.message).slice(0, 500);
  } catch { /* fall through */ }
  return 'a non-error value was thrown';
}

function describe(error) {
  try {
    if (error !== null && typeof error === 'object') {
      const isError = error instanceof ErrorCtor;
      const retry = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds : error.retry_after_s;
      return {
        is_error: isError,
        type: typeof error.type === 'string' ? error.type.slice(0, 40) : null,
        name: typeof error.name === 'string' ? error.name.slice(0, 60) : null,
        message: typeof error.message === 'string' ? error.message.slice(0, 2000) : null,
        retry_after_s: typeof retry === 'number' ? retry : null,
      };
    }
    return { thrown: typeof error };
  } catch {
    return { thrown: 'object' };
  }
}

function logArgument(data) {
  if (data === undefined) return null;
  try {
    const text = stringify(data);
    return typeof text === 'string' ? text : null;
  } catch {
    return '"[unserializable]"';
  }
}

function makeResponse(raw) {
  const body = raw.body;
  // Textual bodies arrive already decoded (UTF-8) by the host; others decode on first use.
  let text = typeof raw.text === 'string' ? raw.text : null;
  const readText = () => {
    if (text === null) text = hostDecode(body, 'utf-8');
    return text;
  };
  return freeze({
    status: raw.status,
    ok: raw.status >= 200 && raw.status < 300,
    headers: freeze(raw.headers),
    url: raw.url,
    text: readText,
    json: () => parse(readText()),
    bytes: () => new U8(body),
  });
}

function makeContext(callId, call) {
  let logs = 0;
  const log = (level) => (message, data) => {
    logs += 1;
    if (logs > MAX_LOGS + 1) return;
    hostLog(callId, level, StringCtor(message).slice(0, 4000), logArgument(data));
  };
  const fetch = async (url, init) => {
    const options = init === undefined || init === null ? {} : init;
    const request = stringify({
      url: StringCtor(url),
      method: options.method === undefined ? 'GET' : StringCtor(options.method).toUpperCase(),
      headers: options.headers === undefined ? {} : options.headers,
      body: options.body === undefined || options.body === null ? null : options.body,
    });
    const outcome = await hostFetch.apply(undefined, [callId, request], { arguments: { copy: true }, result: { promise: true } });
    if (!outcome.ok) {
      const error = new TypeErrorCtor(outcome.message);
      error.name = 'FetchError';
      throw error;
    }
    return makeResponse(outcome.response);
  };
  return freeze({
    fetch,
    log: freeze({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }),
    decodeText: (bytes, encoding) => hostDecode(bytes, encoding === undefined ? 'utf-8' : encoding),
    encodeText: (text) => hostEncode(text),
    now: () => hostNow(),
    account: call.account === null ? null : freeze(call.account),
    credential: call.credential === null ? null : freeze(call.credential),
  });
}

async function dispatch(callId, op, inputJson, callJson, binaryKeysJson, ...binaries) {
  try {
    const ctx = makeContext(callId, parse(callJson));
    const input = parse(inputJson);
    const binaryKeys = parse(binaryKeysJson);
    for (let index = 0; index < binaryKeys.length; index++) input[binaryKeys[index]] = binaries[index];
    const value = await operations[op].call(receiver, input, ctx);
    const text = stringify(value === undefined ? null : value);
    return typeof text === 'string' ? '1' + text : '1null';
  } catch (error) {
    return '0' + stringify(describe(error));
  }
}

function chunkEmitter(callId) {
  return async (chunk) => {
    if (typeof chunk !== 'string' && !(chunk instanceof U8)) throw new TypeErrorCtor('serialize chunks must be strings or Uint8Array');
    const outcome = await hostChunk.apply(undefined, [callId, chunk], { arguments: { copy: true }, result: { promise: true, copy: true } });
    if (!outcome.ok) throw new ErrorCtor(outcome.message);
  };
}

async function emitAll(produced, emit, what) {
  if (produced !== null && typeof produced === 'object' && typeof produced[asyncIterator] === 'function') {
    for await (const chunk of produced) await emit(chunk);
  } else if (produced !== null && typeof produced === 'object' && typeof produced[iterator] === 'function') {
    for (const chunk of produced) await emit(chunk);
  } else {
    throw new TypeErrorCtor(what + ' must return an iterable of string or Uint8Array chunks');
  }
}

async function serialize(callId, input, callJson) {
  try {
    const ctx = makeContext(callId, parse(callJson));
    await emitAll(operations.serialize.call(receiver, input, ctx), chunkEmitter(callId), 'serialize');
    return '1null';
  } catch (error) {
    return '0' + stringify(describe(error));
  }
}

/** The next slice from the host: {done: false, tracks} or {done: true, late}. */
async function nextSlice(callId) {
  const outcome = await hostSlice.apply(undefined, [callId], { result: { promise: true } });
  if (!outcome.ok) throw new ErrorCtor(outcome.message);
  return outcome;
}

async function serializePlaylist(callId, input, callJson) {
  try {
    const ctx = makeContext(callId, parse(callJson));
    const emit = chunkEmitter(callId);
    if (typeof operations.serializePlaylist === 'function') {
      const writer = operations.serializePlaylist.call(receiver, input, ctx);
      if (writer === null || typeof writer !== 'object' || typeof writer.begin !== 'function' || typeof writer.write !== 'function' || typeof writer.end !== 'function') {
        throw new TypeErrorCtor('serializePlaylist must return a writer with begin, write and end');
      }
      await emitAll(writer.begin(), emit, 'begin');
      for (;;) {
        const slice = await nextSlice(callId);
        if (slice.done) {
          await emitAll(writer.end(slice.late), emit, 'end');
          break;
        }
        await emitAll(writer.write(slice.tracks), emit, 'write');
      }
    } else {
      // A plugin written before playlist writers: its serialize gets the whole playlist, gathered here.
      const tracks = [];
      let late;
      for (;;) {
        const slice = await nextSlice(callId);
        if (slice.done) {
          late = slice.late;
          break;
        }
        for (let index = 0; index < slice.tracks.length; index++) tracks.push(slice.tracks[index]);
      }
      const playlist = input.playlist;
      playlist.tracks = tracks;
      const options = input.options;
      for (const key of keys(late)) options[key] = late[key];
      await emitAll(operations.serialize.call(receiver, { playlists: [playlist], options }, ctx), emit, 'serialize');
    }
    return '1null';
  } catch (error) {
    return '0' + stringify(describe(error));
  }
}

return freeze({ install, dispatch, serialize, serializePlaylist });
`;
