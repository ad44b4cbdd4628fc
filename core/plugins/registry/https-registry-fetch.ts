import { request, type Dispatcher } from 'undici';

/**
 * Reads files of a registry served over HTTPS. The base URL comes from the admin's configuration,
 * but every path below it is built from registry data, so each segment is checked and encoded,
 * redirects are refused (a registry must serve its own files), and sizes and times are bounded.
 */

export interface HttpsRegistryFetchOptions {
  baseUrl: string;
  /** Tests pass an agent that trusts their self-signed certificate. */
  dispatcher?: Dispatcher;
  timeoutMs?: number;
}

const SEGMENT = /^[A-Za-z0-9_.+-]+$/;

export class RegistryFetchError extends Error {
  override readonly name = 'RegistryFetchError';
}

export class HttpsRegistryFetch {
  readonly #base: URL;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #timeoutMs: number;

  constructor(options: HttpsRegistryFetchOptions) {
    const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    if (base.protocol !== 'https:') throw new RegistryFetchError('a remote plugin registry must be served over https');
    if (base.username || base.password) throw new RegistryFetchError('a registry URL must not contain credentials');
    this.#base = base;
    this.#dispatcher = options.dispatcher;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  get location(): string {
    return this.#base.href;
  }

  /** The file's bytes, or null when the registry answers 404. */
  async read(segments: readonly string[], maxBytes: number): Promise<Uint8Array | null> {
    for (const segment of segments) {
      if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
        throw new RegistryFetchError(`refusing to request a registry path with the segment ${JSON.stringify(segment)}`);
      }
    }
    const url = new URL(segments.map(encodeURIComponent).join('/'), this.#base);
    if (url.origin !== this.#base.origin || !url.pathname.startsWith(this.#base.pathname)) {
      throw new RegistryFetchError('refusing a registry path outside the registry base URL');
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json, application/octet-stream, */*' },
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
      });
    } catch (error) {
      throw new RegistryFetchError(`the registry at ${this.#base.origin} could not be reached: ${(error as Error).message}`);
    }
    const { statusCode, body } = response;
    if (statusCode === 404) {
      await body.dump();
      return null;
    }
    if (statusCode < 200 || statusCode >= 300) {
      await body.dump();
      throw new RegistryFetchError(`the registry answered HTTP ${statusCode} for ${url.pathname}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await body.dump();
      throw new RegistryFetchError(`${url.pathname} is larger than the ${maxBytes}-byte limit`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        body.destroy();
        throw new RegistryFetchError(`${url.pathname} is larger than the ${maxBytes}-byte limit`);
      }
      chunks.push(chunk);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }
}
