/**
 * The progress bar of `opl convert` on standard error. Reading is one call into the sandbox, so it
 * shows the phase and the size; writing shows a bar over the tracks: finished playlists count in
 * full, the one being written is estimated from its bytes so far (at the output's average bytes per
 * track once known, at first from the input's), never past 99% before it ends. On a terminal the
 * line redraws in place (at most every 100 ms); elsewhere it prints a line per 10%.
 */

const WIDTH = 24;
const REDRAW_MS = 100;

export interface ProgressSink {
  write(text: string): unknown;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export class ConvertProgress {
  readonly #sink: ProgressSink;
  readonly #tty: boolean;
  readonly #label: string;
  #totalTracks = 0;
  #totalPlaylists = 0;
  #bytesPerTrack = 1;
  #doneTracks = 0;
  #donePlaylists = 0;
  #written = 0;
  #writtenBefore = 0;
  #current = 0;
  #lastDraw = 0;
  #lastStep = -1;
  /** On a terminal: the bar was drawn and its line not ended yet. */
  #lineOpen = false;
  #started = Date.now();

  constructor(sink: ProgressSink, tty: boolean, label: string) {
    this.#sink = sink;
    this.#tty = tty;
    this.#label = label;
  }

  reading(file: string, bytes: number, reader: string): void {
    this.#started = Date.now();
    this.#sink.write(`Reading ${file} (${mib(bytes)}) with the ${reader} plugin…\n`);
  }

  /** Parsing is done: the totals the bar measures against. */
  read(playlists: number, tracks: number, inputBytes: number): void {
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    this.#sink.write(`Read ${playlists} playlist(s), ${tracks} track(s) in ${seconds} s.\n`);
    this.#totalPlaylists = playlists;
    this.#totalTracks = tracks;
    this.#bytesPerTrack = tracks > 0 ? Math.max(1, inputBytes / tracks) : 1;
    this.#started = Date.now();
  }

  /** The next playlist(s) (with this many tracks in all) start being written. */
  startPlaylist(tracks: number): void {
    this.#current = tracks;
    this.#writtenBefore = this.#written;
  }

  wrote(bytes: number): void {
    this.#written += bytes;
    this.#draw(false);
  }

  /** What `startPlaylist` began is written: `count` playlists (several when they share one file). */
  finishPlaylists(count: number): void {
    const bytes = this.#written - this.#writtenBefore;
    this.#doneTracks += this.#current;
    this.#donePlaylists += count;
    if (this.#doneTracks > 0) this.#bytesPerTrack = Math.max(1, this.#written / this.#doneTracks);
    else if (this.#current > 0) this.#bytesPerTrack = Math.max(1, bytes / this.#current);
    this.#current = 0;
    this.#draw(false);
  }

  /** The bar at 100%, then the totals. */
  finish(): void {
    this.#draw(true);
    this.#sink.write(`${this.#label}: ${this.#donePlaylists}/${this.#totalPlaylists} playlist(s), ${this.#totalTracks} track(s), ${mib(this.#written)} written in ${((Date.now() - this.#started) / 1000).toFixed(1)} s\n`);
  }

  /** Ends a bar's unfinished line on a terminal, so that what follows (a failure) starts a line of its own. */
  interrupt(): void {
    if (this.#lineOpen) this.#sink.write('\n');
    this.#lineOpen = false;
  }

  #fraction(): number {
    if (this.#totalTracks === 0) return this.#totalPlaylists === 0 ? 1 : this.#donePlaylists / this.#totalPlaylists;
    const within = Math.min(this.#current, (this.#written - this.#writtenBefore) / this.#bytesPerTrack);
    return Math.min(this.#donePlaylists === this.#totalPlaylists ? 1 : 0.99, (this.#doneTracks + within) / this.#totalTracks);
  }

  #draw(final: boolean): void {
    const fraction = final ? 1 : this.#fraction();
    const now = Date.now();
    if (this.#tty) {
      if (!final && now - this.#lastDraw < REDRAW_MS) return;
    } else {
      const step = Math.floor(fraction * 10);
      if (step === this.#lastStep) return;
      this.#lastStep = step;
    }
    this.#lastDraw = now;
    const filled = Math.round(fraction * WIDTH);
    const line = `${this.#label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${this.#donePlaylists}/${this.#totalPlaylists} playlist(s), ${mib(this.#written)} written`;
    this.#sink.write(this.#tty ? `\r${line}${final ? '\n' : ''}` : `${line}\n`);
    this.#lineOpen = this.#tty && !final;
  }
}
