/**
 * A failure of an SDK tool (keygen, sign, publish, …) that a person must act on. The message is a
 * complete sentence meant to be printed as is; the CLI turns it into exit code 1.
 */
import { type RefusalReason } from './refusal.ts';

export class PluginToolError extends Error {
  /** Set when the failure is a bundle or key refusal (e.g. publishing a tampered bundle). */
  readonly reason: RefusalReason | null;
  constructor(message: string, options: { cause?: unknown; reason?: RefusalReason } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PluginToolError';
    this.reason = options.reason ?? null;
  }
}
