import { ProviderError } from '@opl/plugin-sdk';
import { at, nonEmpty, record, records, text, type JsonRecord } from './json-read.ts';
import type { ParsedListItem } from './list-item-parser.ts';

/**
 * The InnerTube `player` answer for one video (what ytmusicapi's `get_song` reads), as the fields
 * of a list row, so a looked-up song maps exactly like a playlist entry (`mapListItem`).
 *
 * `videoDetails` is all it has of the song: title, length, the video type and one channel
 * (`author`, `channelId`) — no album, no featured artists, no explicit flag. An auto-generated
 * channel of an artist is named "<Artist> - Topic"; the suffix is not part of the artist's name.
 * An answer without `videoDetails` but with a playability status other than OK (`ERROR` "Video
 * unavailable" for an unknown id, a private or removed video) means YouTube Music has no such
 * song: null. A video it has but will not play (`UNPLAYABLE`, region-blocked) is still a song
 * another service may have; it is answered and marked unavailable, as greyed-out entries are.
 */

const TOPIC_SUFFIX = /\s+-\s+Topic$/;
const SECONDS = /^\d{1,7}$/;

/** The artist a channel stands for: its name without " - Topic". */
export function artistOfAuthor(author: string): string {
  return author.replace(TOPIC_SUFFIX, '').trim();
}

function lengthOf(details: JsonRecord): number | null {
  const value = text(details['lengthSeconds']);
  // Live streams say "0": no length to match by.
  return value !== null && SECONDS.test(value) && Number(value) > 0 ? Number(value) : null;
}

function largestThumbnail(details: JsonRecord): string | null {
  const thumbnails = records(at(details, 'thumbnail', 'thumbnails'));
  return nonEmpty(thumbnails[thumbnails.length - 1]?.['url']);
}

export function parsePlayerAnswer(answer: JsonRecord, videoId: string): ParsedListItem | null {
  const status = nonEmpty(at(answer, 'playabilityStatus', 'status'));
  const details = record(answer['videoDetails']);
  if (!details) {
    if (status !== null && status !== 'OK') return null;
    throw new ProviderError('YouTube Music sent an unexpected answer while looking up a song.');
  }
  // The answer must be about the video asked for; anything else would name the wrong song.
  if (nonEmpty(details['videoId']) !== videoId) throw new ProviderError('YouTube Music answered about another video while looking up a song.');
  const author = nonEmpty(details['author']);
  const artist = author === null ? '' : artistOfAuthor(author);
  return {
    videoId,
    setVideoId: null,
    title: text(details['title']) ?? '',
    artists: artist === '' ? [] : [{ name: artist, id: nonEmpty(details['channelId']) }],
    album: null,
    durationS: lengthOf(details),
    videoType: nonEmpty(details['musicVideoType']),
    explicit: false,
    thumbnail: largestThumbnail(details),
    greyedOut: status !== 'OK',
  };
}
