/**
 * Bounds the format-plugin parse calls of import previews that run at once: at most one per plugin
 * and `maxRunning` in all; the others wait their turn in arrival order, at most `maxWaiting` of
 * them.
 *
 * Why: every call to one plugin runs in that plugin's one isolate, which shares its memory limit
 * and CPU budget among the calls in flight, and every isolate lives in the one plugin-host
 * process. Concurrent uploads that each fit the limits alone broke them together, and each break
 * is a strike towards quarantining the reader for the whole instance (measured: two concurrent
 * 50,000-line M3U files broke a 16 MiB sandbox that read 100,000 lines alone; ten concurrent
 * 50 MiB CSV files within every import limit kept the plugin host from answering its watchdog,
 * which killed it — a strike for the CSV reader and failed calls for every plugin). Queued, each
 * file is read as it would be alone.
 */

export class ParseGateFullError extends Error {
  readonly waiting: number;
  constructor(waiting: number) {
    super(`${waiting} previews are already waiting for a reader`);
    this.name = 'ParseGateFullError';
    this.waiting = waiting;
  }
}

interface Waiter {
  readonly key: string;
  readonly resolve: (release: () => void) => void;
}

export class ParseGate {
  readonly #maxRunning: number;
  readonly #maxWaiting: number;
  readonly #running = new Set<string>();
  readonly #queue: Waiter[] = [];

  constructor(options: { maxRunning: number; maxWaiting: number }) {
    this.#maxRunning = Math.max(1, options.maxRunning);
    this.#maxWaiting = Math.max(0, options.maxWaiting);
  }

  /** Calls running and waiting now (diagnostics and tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running.size, waiting: this.#queue.length };
  }

  /** Runs `work` when `key` (a plugin id) has no call running and a slot is free. Throws `ParseGateFullError` when too many wait. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.#acquire(key);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #acquire(key: string): Promise<() => void> {
    // After every drain each waiter's plugin is busy or no slot is free: a free plugin and slot can start at once.
    if (this.#free(key)) return Promise.resolve(this.#take(key));
    if (this.#queue.length >= this.#maxWaiting) return Promise.reject(new ParseGateFullError(this.#queue.length));
    return new Promise((resolve) => this.#queue.push({ key, resolve }));
  }

  #free(key: string): boolean {
    return this.#running.size < this.#maxRunning && !this.#running.has(key);
  }

  #take(key: string): () => void {
    this.#running.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running.delete(key);
      this.#drain();
    };
  }

  /** Starts waiters in arrival order; one whose plugin is busy lets later ones for other plugins pass. */
  #drain(): void {
    for (let index = 0; index < this.#queue.length && this.#running.size < this.#maxRunning; ) {
      const waiter = this.#queue[index]!;
      if (this.#running.has(waiter.key)) {
        index++;
        continue;
      }
      this.#queue.splice(index, 1);
      waiter.resolve(this.#take(waiter.key));
    }
  }
}
