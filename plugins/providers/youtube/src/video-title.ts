/**
 * What a YouTube video says about the song it carries. YouTube has no track metadata: art tracks
 * (label-delivered audio on an auto-generated "<Artist> - Topic" channel) are titled with the song
 * and describe it in a fixed layout ("Title · Artist · Artist", album, "Released on: date");
 * official videos are usually titled "Artist - Title (Official Video)". Anything else is read as
 * is.
 */

const TOPIC_SUFFIX = / - Topic$/;
// Decorations of a video title that are not part of the song's title.
const VIDEO_DECORATIONS = /\s*[([](?:official\s+(?:music\s+)?(?:video|audio|lyric\s+video|visualizer)|music\s+video|lyric\s+video|lyrics|audio|visualizer|hd|4k|m\/v|mv)[)\]]/gi;

/** The artist of a "<Artist> - Topic" channel, or null for any other channel. */
export function topicArtist(channelTitle: string): string | null {
  return TOPIC_SUFFIX.test(channelTitle) ? channelTitle.replace(TOPIC_SUFFIX, '').trim() || null : null;
}

export interface ArtTrackDetails {
  readonly artists: readonly string[];
  readonly album: string | null;
  readonly releaseDate: string | null;
}

/** The song facts of an art track's auto-generated description, when it has that layout. */
export function artTrackDetails(description: string, title: string): ArtTrackDetails | null {
  const blocks = description.split(/\n\s*\n/).map((block) => block.trim());
  if (!blocks[0]?.startsWith('Provided to YouTube by')) return null;
  const credits = blocks[1]?.split(' · ').map((part) => part.trim()).filter(Boolean) ?? [];
  if (credits.length < 2 || credits[0] !== title) return null;
  const released = blocks.map((block) => /^Released on: (\d{4}-\d{2}-\d{2})$/.exec(block)).find((match) => match !== null);
  const album = blocks[2] && !blocks[2].includes(':') && !blocks[2].startsWith('℗') ? blocks[2] : null;
  return { artists: credits.slice(1), album, releaseDate: released ? released[1]! : null };
}

/** "Artist - Title (Official Video)" → artist and title; null when the title has no such split. */
export function splitVideoTitle(title: string): { artist: string; title: string } | null {
  const match = /^(.+?)\s+[-–—]\s+(.+)$/.exec(title.trim());
  if (!match) return null;
  const song = match[2]!.replace(VIDEO_DECORATIONS, '').trim();
  const artist = match[1]!.trim();
  return song && artist ? { artist, title: song } : null;
}
