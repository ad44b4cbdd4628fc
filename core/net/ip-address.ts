/**
 * Classifies resolved addresses: only globally routable unicast may be connected to. Pure (no
 * I/O), parsing the address text itself so that every spelling a resolver can hand back (IPv6
 * with an embedded dotted IPv4, zone ids, upper case) is judged by the bits it denotes.
 */

export type AddressFamily = 4 | 6;

/** Why an address is not public: the special-purpose block it falls in. */
export type AddressRange =
  | 'invalid'
  | 'this_network'
  | 'private'
  | 'shared_cgnat'
  | 'loopback'
  | 'link_local'
  | 'ietf_protocol'
  | 'documentation'
  | 'relay_6to4'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unspecified'
  | 'discard_only'
  | 'special_purpose'
  | 'unique_local'
  | 'not_global_unicast'
  | 'nat64_local';

export type AddressClass =
  | { readonly public: true; readonly family: AddressFamily }
  | { readonly public: false; readonly family: AddressFamily | null; readonly range: AddressRange; readonly embeddedV4?: string };

type V4Block = readonly [base: number, prefix: number, range: AddressRange];

// IANA IPv4 special-purpose registry, minus the few entries that are globally reachable anycast.
const V4_BLOCKS: readonly V4Block[] = [
  [v4(0, 0, 0, 0), 8, 'this_network'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'shared_cgnat'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link_local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'ietf_protocol'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, 'relay_6to4'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'benchmarking'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(255, 255, 255, 255), 32, 'broadcast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function inV4Block(value: number, base: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : (~((1 << (32 - prefix)) - 1)) >>> 0;
  return ((value & mask) >>> 0) === base;
}

const V4_STRICT = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A canonical dotted-quad (no leading zeros, no short forms) as a 32-bit number, or null. */
export function parseIpv4(text: string): number | null {
  const match = V4_STRICT.exec(text);
  if (!match) return null;
  return v4(Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4]));
}

function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/;

/** An IPv6 address (optionally with a `%zone`) as eight 16-bit groups, or null. */
export function parseIpv6(text: string): number[] | null {
  let input = text.toLowerCase();
  const zone = input.indexOf('%');
  if (zone !== -1) input = input.slice(0, zone);
  if (input.length === 0 || input.length > 45) return null;

  let tail: number[] = [];
  const lastColon = input.lastIndexOf(':');
  if (input.includes('.')) {
    const embedded = parseIpv4(input.slice(lastColon + 1));
    if (embedded === null) return null;
    tail = [embedded >>> 16, embedded & 0xffff];
    // `::1.2.3.4` leaves `::`, `a:b::1.2.3.4` leaves `a:b::`, `a:b:c:d:e:f:1.2.3.4` leaves `a:…:f`.
    input = input.slice(0, lastColon + 1);
    if (input.endsWith(':') && !input.endsWith('::')) input = input.slice(0, -1);
  }

  const halves = input.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    const out: number[] = [];
    for (const group of groups) {
      if (!HEX_GROUP.test(group)) return null;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? '');
  if (head === null) return null;
  if (halves.length === 1) {
    const groups = [...head, ...tail];
    return groups.length === 8 ? groups : null;
  }
  const rest = parseGroups(halves[1] ?? '');
  if (rest === null) return null;
  const known = head.length + rest.length + tail.length;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

function classifyV4(value: number, family: AddressFamily, embedded: boolean): AddressClass {
  for (const [base, prefix, range] of V4_BLOCKS) {
    if (inV4Block(value, base, prefix)) {
      return embedded ? { public: false, family, range, embeddedV4: formatIpv4(value) } : { public: false, family, range };
    }
  }
  return { public: true, family };
}

function matches(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let index = 0; bits > 0; index++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function embeddedV4(high: number, low: number): number {
  return ((high << 16) | low) >>> 0;
}

function classifyV6(groups: readonly number[]): AddressClass {
  const [, g1 = 0, g2 = 0, , , , g6 = 0, g7 = 0] = groups;
  const refuse = (range: AddressRange): AddressClass => ({ public: false, family: 6, range });
  if (groups.every((group) => group === 0)) return refuse('unspecified');
  if (matches(groups, [0, 0, 0, 0, 0, 0, 0, 1], 128)) return refuse('loopback');
  // IPv4-mapped and the well-known NAT64 prefix reach the embedded IPv4 address: judge that one.
  if (matches(groups, [0, 0, 0, 0, 0, 0xffff], 96) || matches(groups, [0x64, 0xff9b, 0, 0, 0, 0], 96)) {
    return classifyV4(embeddedV4(g6, g7), 6, true);
  }
  if (matches(groups, [0x64, 0xff9b, 1], 48)) return refuse('nat64_local');
  if (matches(groups, [0x100, 0, 0, 0], 64)) return refuse('discard_only');
  if (matches(groups, [0xfc00], 7)) return refuse('unique_local');
  if (matches(groups, [0xfe80], 10)) return refuse('link_local');
  if (matches(groups, [0xff00], 8)) return refuse('multicast');
  // Everything else outside 2000::/3 (IPv4-compatible ::/96, site-local, unassigned space) is not
  // global unicast, whatever it embeds.
  if (!matches(groups, [0x2000], 3)) return refuse('not_global_unicast');
  if (matches(groups, [0x2001, 0x0db8], 32)) return refuse('documentation');
  // 2001::/23 holds the IETF protocol assignments, Teredo (2001::/32) and benchmarking (2001:2::/48).
  if (matches(groups, [0x2001, 0], 23)) return refuse('special_purpose');
  // 6to4 relays traffic to the IPv4 address in bits 16–47.
  if (matches(groups, [0x2002], 16)) return classifyV4(embeddedV4(g1, g2), 6, true);
  if (matches(groups, [0x3fff, 0], 20)) return refuse('documentation');
  return { public: true, family: 6 };
}

/**
 * Whether a resolved address may be connected to. Anything that does not parse as a canonical
 * IPv4 or IPv6 address is treated as not public.
 */
export function classifyAddress(address: string): AddressClass {
  const asV4 = parseIpv4(address);
  if (asV4 !== null) return classifyV4(asV4, 4, false);
  const asV6 = parseIpv6(address);
  if (asV6 !== null) return classifyV6(asV6);
  return { public: false, family: null, range: 'invalid' };
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
