import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { Agent, buildConnector } from 'undici';
import { classifyAddress, type AddressFamily } from './ip-address.ts';
import { SafeFetchError } from './safe-fetch-error.ts';

/**
 * The undici Agent of one safe fetch. Its connector resolves host names itself, through the
 * injectable resolver, and refuses the connection when any answer is not globally routable. This
 * check runs inside the connect, on the very answers the socket will use, so a name that resolved to
 * a public address a moment earlier and to an internal one now (DNS rebinding) is still refused.
 */

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Answers a host name with every address it resolves to. */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

export interface GuardedAgentOptions {
  readonly resolver: HostResolver;
  readonly timeoutMs: number;
  readonly maxHeaderBytes: number;
  /** TEST ONLY: addresses to treat as public (see SafeFetchTestHooks). */
  readonly allowAddress?: ((address: string) => boolean) | undefined;
  /** TEST ONLY: the TCP port to connect to instead of the URL's (see SafeFetchTestHooks). */
  readonly connectPort?: number | undefined;
  readonly ca?: string | readonly string[] | undefined;
}

export interface GuardedAgent {
  readonly agent: Agent;
  /** The refusal raised inside a connect, if any: the error undici reports may wrap or replace it. */
  readonly refusal: () => SafeFetchError | null;
}

/** The system resolver (getaddrinfo, so /etc/hosts applies), every answer in resolver order. */
export const systemResolver: HostResolver = async (host) => dnsLookup(host, { all: true, order: 'verbatim' });

/**
 * Resolves a host name and checks every answer. Throws `dns_failed` when there is no usable
 * answer and `destination_not_public` when any answer is outside global unicast space.
 */
export async function resolvePublicAddresses(
  host: string,
  resolver: HostResolver,
  allowAddress?: (address: string) => boolean,
): Promise<{ address: string; family: AddressFamily }[]> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolver(host);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new SafeFetchError('dns_failed', `${host} could not be resolved${typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : ''}`);
  }
  if (!Array.isArray(answers) || answers.length === 0) throw new SafeFetchError('dns_failed', `${host} has no address`);
  const checked: { address: string; family: AddressFamily }[] = [];
  for (const answer of answers as readonly unknown[]) {
    const address = typeof (answer as ResolvedAddress | null)?.address === 'string' ? (answer as ResolvedAddress).address : '';
    const verdict = classifyAddress(address);
    if (verdict.family === null) throw new SafeFetchError('destination_not_public', `${host} resolves to something that is not an IP address`, 'invalid');
    if (!verdict.public && !(allowAddress?.(address) ?? false)) {
      throw new SafeFetchError(
        'destination_not_public',
        `${host} resolves to an address that is not publicly routable (${verdict.range.replaceAll('_', ' ')}); the engine only fetches from public internet hosts`,
        verdict.range,
      );
    }
    checked.push({ address, family: verdict.family });
  }
  return checked;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createGuardedAgent(options: GuardedAgentOptions): GuardedAgent {
  let refusal: SafeFetchError | null = null;

  const lookup = (hostname: string, lookupOptions: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolvePublicAddresses(hostname, options.resolver, options.allowAddress).then(
      (addresses) => {
        const wanted = Number(lookupOptions.family);
        const usable = wanted === 4 || wanted === 6 ? addresses.filter((entry) => entry.family === wanted) : addresses;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no address of the requested family`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (lookupOptions.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        const failure = error instanceof SafeFetchError ? error : new SafeFetchError('dns_failed', `${hostname} could not be resolved`);
        refusal ??= failure;
        callback(failure, '');
      },
    );
  };

  const base = buildConnector({
    allowH2: false,
    timeout: options.timeoutMs,
    lookup,
    ...(options.ca !== undefined ? { ca: typeof options.ca === 'string' ? options.ca : [...options.ca] } : {}),
  });
  const port = options.connectPort;
  const connect: buildConnector.connector = port === undefined ? base : (connectOptions, callback) => base({ ...connectOptions, port: String(port) }, callback);

  const agent = new Agent({
    connect,
    allowH2: false,
    maxHeaderSize: options.maxHeaderBytes,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: 1,
    pipelining: 1,
  });
  return { agent, refusal: () => refusal };
}
