/**
 * The `SAPISIDHASH` authorization a signed-in YouTube Music browser sends with its cookie:
 * `SAPISIDHASH <ts>_<sha1("<ts> <SAPISID> <origin>")>`. The sandbox has no crypto, so SHA-1 is
 * implemented here (FIPS 180-4); it only signs requests, it protects nothing by itself.
 */

function utf8(input: string): number[] {
  const bytes: number[] = [];
  for (const char of input) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return bytes;
}

const rotl = (value: number, bits: number) => ((value << bits) | (value >>> (32 - bits))) >>> 0;

/** SHA-1 of a string's UTF-8 bytes, as lowercase hex. */
export function sha1Hex(input: string): string {
  const bytes = utf8(input);
  const bitLength = bytes.length * 8;
  bytes.push(0x80);
  while (bytes.length % 64 !== 56) bytes.push(0);
  // Message length in bits as a 64-bit big-endian number (inputs here are far below 2^32 bits).
  const high = Math.floor(bitLength / 0x100000000);
  bytes.push((high >>> 24) & 0xff, (high >>> 16) & 0xff, (high >>> 8) & 0xff, high & 0xff);
  bytes.push((bitLength >>> 24) & 0xff, (bitLength >>> 16) & 0xff, (bitLength >>> 8) & 0xff, bitLength & 0xff);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Array<number>(80);
  for (let offset = 0; offset < bytes.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const j = offset + i * 4;
      w[i] = ((bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!) >>> 0;
    }
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!, 1);
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const temp = (rotl(a, 5) + (f >>> 0) + e + k + w[i]!) >>> 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  return [h0, h1, h2, h3, h4].map((word) => word.toString(16).padStart(8, '0')).join('');
}

/** The SAPISID value of a cookie header (or its `__Secure-3PAPISID` twin); null when absent. */
export function sapisidFromCookie(cookie: string): string | null {
  for (const name of ['SAPISID', '__Secure-3PAPISID']) {
    const match = new RegExp(`(?:^|;\\s*)${name.replace(/[-_]/g, '\\$&')}=([^;\\s]+)`).exec(cookie);
    if (match) return match[1]!;
  }
  return null;
}

export function sapisidHashHeader(sapisid: string, timestampS: number, origin: string): string {
  return `SAPISIDHASH ${timestampS}_${sha1Hex(`${timestampS} ${sapisid} ${origin}`)}`;
}
