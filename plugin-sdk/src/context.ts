/**
 * What a plugin's operations receive from the host. Inside the sandbox this is the plugin's only
 * way to reach the outside world: there is no fs, process, env, socket or timer of its own.
 */

export interface PluginRequestInit {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A string body (JSON, form data); the host sends it as is. */
  body?: string;
}

/** A response the host has already read in full (bounded by the manifest's response cap). */
export interface PluginResponse {
  readonly status: number;
  readonly ok: boolean;
  /** Lowercased header names. Credential-bearing headers are never present. */
  readonly headers: Record<string, string>;
  /** The final URL after (re-checked) redirects. */
  readonly url: string;
  text(): string;
  json(): unknown;
  bytes(): Uint8Array;
}

export interface PluginLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** The connected account an operation runs for (provider plugins). Never carries a token. */
export interface PluginAccount {
  readonly id: string;
  readonly label: string | null;
}

export interface PluginContext {
  /**
   * The host's fetch: allowed only when the parsed URL matches one of the manifest's network
   * grants (origin, path prefix, method). The host attaches the account's credential itself.
   */
  fetch(url: string, init?: PluginRequestInit): Promise<PluginResponse>;
  readonly log: PluginLogger;
  /** Decodes bytes with a WHATWG encoding label (`utf-8`, `utf-16le`, `windows-1252`, …). */
  decodeText(bytes: Uint8Array, encoding?: string): string;
  encodeText(text: string): Uint8Array;
  /** The current time as an ISO string (the sandbox has no clock of its own). */
  now(): string;
}

export interface ProviderContext extends PluginContext {
  readonly account: PluginAccount | null;
  /**
   * The account's credential, present only when the manifest declares `credential_access` and
   * only for those origins; plugins that let the host attach credentials never see one.
   */
  readonly credential: { readonly access_token: string; readonly origin: string } | null;
}

export type FormatContext = PluginContext;
