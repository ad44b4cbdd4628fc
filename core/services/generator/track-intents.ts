/**
 * What the generator asks a language model for, and how its answer is read. The model's output is
 * untrusted input: it may hold more items than asked, over-long or empty fields, markup, URLs,
 * provider ids or text aimed at the engine. Only plain search words survive (title, artist,
 * optional album, year and reason); everything else is dropped and counted in notes, so the user
 * sees what was discarded instead of a silent loss.
 */

export const INTENT_LIMITS = { title: 200, artist: 200, album: 200, reason: 300, minYear: 1800, maxYear: 2200 } as const;

/** One song the model proposes, reduced to the words a search of the target takes. */
export interface TrackIntent {
  title: string;
  artist: string;
  album: string | null;
  release_year: number | null;
  reason: string | null;
}

export type IntentNoteCode = 'extra_items_dropped' | 'item_invalid' | 'field_dropped' | 'duplicate_intent' | 'id_not_offered';

export interface IntentNote {
  code: IntentNoteCode;
  /** Index of the item in the model's answer (absent for notes about the whole answer). */
  index?: number;
  field?: string;
  message: string;
}

export interface ReadIntents {
  intents: TrackIntent[];
  notes: IntentNote[];
}

/**
 * The JSON Schema of the answer, in the form OpenAI-compatible servers take inside
 * `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`: at most `count`
 * items, no property the engine does not read.
 */
export function intentsJsonSchema(count: number): Record<string, unknown> {
  const nullableText = (max: number) => ({ type: ['string', 'null'], maxLength: max });
  return answerListSchema(count, {
    title: { type: 'string', minLength: 1, maxLength: INTENT_LIMITS.title },
    artist: { type: 'string', minLength: 1, maxLength: INTENT_LIMITS.artist },
    album: nullableText(INTENT_LIMITS.album),
    release_year: { type: ['integer', 'null'], minimum: INTENT_LIMITS.minYear, maximum: INTENT_LIMITS.maxYear },
    reason: nullableText(INTENT_LIMITS.reason),
  });
}

/** `{tracks: [...]}` with 1 to `count` items of exactly these properties, each required (strict mode wants all listed). */
export function answerListSchema(count: number, properties: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['tracks'],
    properties: {
      tracks: { type: 'array', minItems: 1, maxItems: count, items: { type: 'object', additionalProperties: false, required: Object.keys(properties), properties } },
    },
  };
}

const MARKUP = /<\/?[a-z][^>]*>|<!--|-->|\[\/?[a-z]+[^\]]*\]|```/i;
const URL_LIKE = /\b(?:https?|ftp|file|data|javascript):\/*\S*|\bwww\.\S+|\b[\w-]+\.(?:com|net|org|io|fm|be|ly|app|music)\/\S*/i;
/** Provider URIs and bare ids (Spotify base62, YouTube video ids, ISRCs, numeric catalogue ids). */
const PROVIDER_ID = /\b(?:spotify|tidal|deezer|applemusic|apple|ytmusic|youtube|yt):(?:[a-z]+:)?[\w-]+|\b(?=[0-9A-Za-z]*\d)(?=[0-9A-Za-z]*[A-Za-z])[0-9A-Za-z]{22}\b|\b[A-Z]{2}[A-Z0-9]{3}\d{7}\b|\b\d{7,}\b/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Why a text field is refused, or null when it is plain words. */
export function refusal(text: string): string | null {
  if (MARKUP.test(text)) return 'markup';
  if (URL_LIKE.test(text)) return 'a URL';
  if (PROVIDER_ID.test(text)) return 'a provider id';
  return null;
}

/** A model-written text field as plain words (control characters folded, capped), or why it is refused. */
export function plainText(value: unknown, max: number): { text: string | null; problem: string | null } {
  if (value === null || value === undefined) return { text: null, problem: null };
  if (typeof value !== 'string') return { text: null, problem: 'not text' };
  const text = value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return { text: null, problem: null };
  const why = refusal(text);
  if (why) return { text: null, problem: `it held ${why}` };
  return { text: text.length > max ? text.slice(0, max).trimEnd() : text, problem: null };
}

function intentKey(intent: TrackIntent): string {
  const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return `${fold(intent.title)}\u0000${fold(intent.artist)}`;
}

/**
 * Reads the model's answer (already JSON-parsed): `{tracks: [...]}` or, as small models often
 * answer, a bare array. Keeps the first `count` usable items; an item whose title or artist is
 * unusable is dropped with a note, an unusable optional field is dropped alone. Returns null when
 * the answer has no list of tracks at all (the caller may ask once for a repair).
 */
export function readIntents(answer: unknown, count: number): ReadIntents | null {
  const list = Array.isArray(answer) ? answer : answer !== null && typeof answer === 'object' && Array.isArray((answer as { tracks?: unknown }).tracks) ? (answer as { tracks: unknown[] }).tracks : null;
  if (list === null) return null;
  const intents: TrackIntent[] = [];
  const notes: IntentNote[] = [];
  const seen = new Set<string>();
  let index = -1;
  for (const raw of list) {
    index += 1;
    if (intents.length === count) {
      notes.push({ code: 'extra_items_dropped', message: `The model proposed ${list.length} songs for ${count} asked; the first ${count} usable ones are kept.` });
      break;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      notes.push({ code: 'item_invalid', index, message: `Item ${index + 1} is not a song (title and artist).` });
      continue;
    }
    const item = raw as Record<string, unknown>;
    const title = plainText(item['title'], INTENT_LIMITS.title);
    const artist = plainText(item['artist'], INTENT_LIMITS.artist);
    if (!title.text || !artist.text) {
      const problems = [title.text ? null : `title ${title.problem ?? 'missing'}`, artist.text ? null : `artist ${artist.problem ?? 'missing'}`].filter(Boolean).join(', ');
      notes.push({ code: 'item_invalid', index, message: `Item ${index + 1} was dropped: ${problems}.` });
      continue;
    }
    const intent: TrackIntent = { title: title.text, artist: artist.text, album: null, release_year: null, reason: null };
    for (const field of ['album', 'reason'] as const) {
      const value = plainText(item[field], INTENT_LIMITS[field]);
      if (value.problem) notes.push({ code: 'field_dropped', index, field, message: `The ${field} of item ${index + 1} was dropped: ${value.problem}.` });
      intent[field] = value.text;
    }
    const year = item['release_year'] ?? item['year'];
    if (typeof year === 'number' && Number.isInteger(year) && year >= INTENT_LIMITS.minYear && year <= INTENT_LIMITS.maxYear) intent.release_year = year;
    else if (year !== undefined && year !== null) notes.push({ code: 'field_dropped', index, field: 'release_year', message: `The year of item ${index + 1} was dropped: not a year.` });
    const key = intentKey(intent);
    if (seen.has(key)) {
      notes.push({ code: 'duplicate_intent', index, message: `Item ${index + 1} repeats an earlier song.` });
      continue;
    }
    seen.add(key);
    intents.push(intent);
  }
  return { intents, notes };
}
