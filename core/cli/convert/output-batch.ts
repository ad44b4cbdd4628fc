import { linkSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { makeDirectories } from '../make-directories.ts';
import { NO_HARD_LINKS, publishPartialFile, TargetExistsError } from '../publish-partial-file.ts';
import { isSameFile, type FileIdentity } from './same-file.ts';

/**
 * The output files of one `opl convert`, all or nothing. Every file is first written in full to a
 * hidden temporary name beside its destination (`stage`); only when all are written are all
 * destinations checked and then all published (`publish`). A failure while publishing puts back
 * what was there before, Ctrl-C (or any failure) before it removes the temporary files and the
 * directories this run made — never a file or directory that existed before.
 */

export type OutputProblem = 'directory' | 'write' | 'exists' | 'input';

/** Why a file of the batch could not be written; `path` is the file (or directory) concerned. */
export class OutputError extends Error {
  readonly path: string;
  readonly problem: OutputProblem;
  override readonly cause: unknown;

  constructor(path: string, problem: OutputProblem, cause: unknown = null) {
    super(`${path}: ${problem}${cause instanceof Error ? ` (${cause.message})` : ''}`);
    this.name = 'OutputError';
    this.path = path;
    this.problem = problem;
    this.cause = cause;
  }
}

interface Staged {
  target: string;
  temporary: string;
}

/** What a destination held before --force replaced it: kept under `path` until the batch is published. */
interface Previous {
  path: string;
  /** True when the old file was moved away (no hard links): the destination name is free meanwhile. */
  moved: boolean;
}

function isFsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${path}`), { code, path });
}

/** Keeps the file at `target` under a hidden name beside it, so a failed batch can put it back. */
function keepPrevious(target: string): Previous | null {
  if (!statSync(target, { throwIfNoEntry: false })) return null;
  // Never removed first: a file already there under this name is not this run's to delete (link refuses it).
  const path = join(dirname(target), `.${basename(target)}.${process.pid}.previous`);
  try {
    linkSync(target, path);
    return { path, moved: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    renameSync(target, path);
    return { path, moved: true };
  }
}

/** Best effort: a cleanup step that fails must not stop the others. */
function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // Nothing better to do; the error that caused the cleanup is the one reported.
  }
}

export class OutputBatch {
  readonly #force: boolean;
  readonly #input: FileIdentity;
  readonly #staged: Staged[] = [];
  #madeDirectories: string[] = [];
  readonly #stopListening: () => void;

  /**
   * `onInterrupt` runs after Ctrl-C has removed the batch's files; it ends the process. Listening
   * starts here, before any file exists: no temporary file is ever there without someone to remove
   * it, and a signal's default action (ending the process at once) never leaves one behind.
   */
  constructor(options: { force: boolean; input: FileIdentity; onInterrupt: () => void }) {
    this.#force = options.force;
    this.#input = options.input;
    const onInterrupt = () => {
      this.discard();
      options.onInterrupt();
    };
    process.on('SIGINT', onInterrupt);
    this.#stopListening = () => process.off('SIGINT', onInterrupt);
  }

  /** Writes one file to its temporary name through `produce`; a failed write throws an OutputError (plugin failures pass unchanged). */
  async stage(target: string, produce: (sink: (chunk: Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
    const directory = dirname(target);
    try {
      this.#madeDirectories.push(...(await makeDirectories(directory)));
    } catch (error) {
      if (!isFsError(error)) throw error;
      throw new OutputError(directory, 'directory', error);
    }
    const temporary = join(directory, `.${basename(target)}.${process.pid}.partial`);
    let handle;
    try {
      handle = await open(temporary, 'wx', 0o644);
    } catch (error) {
      if (!isFsError(error)) throw error;
      throw new OutputError(target, 'write', error);
    }
    this.#staged.push({ target, temporary });
    // A failed write (a full disk) surfaces from the plugin host as the consumer's failure: keep the cause.
    let writeError: unknown = null;
    try {
      await produce(async (chunk) => {
        try {
          await handle.write(chunk);
        } catch (error) {
          writeError = error;
          throw error;
        }
      });
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      const cause = writeError ?? error;
      if (isFsError(cause)) throw new OutputError(target, 'write', cause);
      throw error;
    }
  }

  /** Checks every destination, then gives every staged file its name — all of them, or none. */
  publish(): void {
    for (const { target } of this.#staged) {
      if (isSameFile(this.#input, target)) throw new OutputError(target, 'input');
      const info = statSync(target, { throwIfNoEntry: false });
      if (info && !this.#force) throw new OutputError(target, 'exists');
      if (info?.isDirectory()) throw new OutputError(target, 'write', fsError('EISDIR', target));
    }
    const done: { target: string; previous: Previous | null; published: boolean }[] = [];
    let current = '';
    try {
      for (const file of this.#staged) {
        current = file.target;
        const entry = { target: file.target, previous: this.#force ? keepPrevious(file.target) : null, published: false };
        done.push(entry);
        publishPartialFile(file.temporary, file.target, this.#force);
        entry.published = true;
      }
    } catch (error) {
      for (const { target, previous, published } of done.reverse()) {
        if (previous && (published || previous.moved)) attempt(() => renameSync(previous.path, target));
        else if (previous) attempt(() => rmSync(previous.path, { force: true }));
        else if (published) attempt(() => rmSync(target, { force: true }));
      }
      if (error instanceof TargetExistsError) throw new OutputError(error.target, 'exists', error);
      if (isFsError(error)) throw new OutputError(current, 'write', error);
      throw error;
    }
    for (const { previous } of done) if (previous) attempt(() => rmSync(previous.path, { force: true }));
    this.#staged.length = 0;
    this.#madeDirectories = [];
  }

  /** Removes what this batch wrote and has not published, and the directories it made (when empty). */
  discard(): void {
    for (const { temporary } of this.#staged) attempt(() => rmSync(temporary, { force: true }));
    this.#staged.length = 0;
    for (const directory of this.#madeDirectories.reverse()) attempt(() => rmdirSync(directory));
    this.#madeDirectories = [];
  }

  /** Discards anything unpublished and stops listening for Ctrl-C. */
  close(): void {
    this.discard();
    this.#stopListening();
  }
}
