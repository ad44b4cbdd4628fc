import type { Track } from '../model.schema.ts';

/**
 * A track table's `Kind` column, as iTunes and the Music app write it in "Export Playlist…" text
 * files and spreadsheets made from them: the file kind of each item (`MPEG audio file`,
 * `Apple Music AAC audio file`, `Purchased MPEG-4 video file`, `Audible file`,
 * `Internet audio stream`, `PDF document`, …). Most name a song; the ones naming a podcast
 * episode, an audiobook, a video, a stream or a document name something a music service does not
 * take into a playlist, so the row is kept but not migrated, with the reason.
 *
 * The words are matched inside the value, case-insensitively, in English and in the languages the
 * track tables know column names in: a kind names no artist or title, so a match cannot be a
 * song's words. A kind matching none (an audio file of any codec, an unknown word) is a song.
 */

export interface UnsupportedKind {
  readonly mediaType: Exclude<Track['media_type'], 'track' | 'local_file'>;
  readonly reason: string;
}

const KINDS: ReadonlyArray<{ readonly words: RegExp } & UnsupportedKind> = [
  { words: /podcast/i, mediaType: 'episode', reason: 'podcast episode: music services do not take podcast episodes into playlists' },
  // Before video: an "enhanced audiobook" is no video, and no audiobook kind names one.
  { words: /audio ?book|audible|hörbuch|livre audio|audiolibro|audiolivro|luisterboek/i, mediaType: 'unknown', reason: 'audiobook: music services do not take audiobooks into playlists' },
  { words: /video|vidéo|vídeo|movie|film/i, mediaType: 'video', reason: 'video: the playlist target takes songs, not videos' },
  { words: /stream/i, mediaType: 'unknown', reason: 'internet stream: a radio or stream address, not a song' },
  { words: /pdf|document|dokument/i, mediaType: 'unknown', reason: 'document: a booklet or other file, not a song' },
];

/** Why an item of this kind is not migrated, or null when the kind is a song's (or empty). */
export function unsupportedKind(kind: string): UnsupportedKind | null {
  const text = kind.trim();
  if (text === '') return null;
  const found = KINDS.find((entry) => entry.words.test(text));
  return found === undefined ? null : { mediaType: found.mediaType, reason: found.reason };
}
