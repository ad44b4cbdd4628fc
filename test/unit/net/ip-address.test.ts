import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIpv4, parseIpv6 } from '../../../core/net/ip-address.ts';

describe('parseIpv4 / parseIpv6', () => {
  it('reads only canonical dotted quads', () => {
    expect(parseIpv4('1.2.3.4')).toBe(0x01020304);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    for (const text of ['01.2.3.4', '1.2.3', '1.2.3.256', '0x7f.0.0.1', '2130706433', ' 1.2.3.4', '1.2.3.4.']) expect(parseIpv4(text), text).toBeNull();
  });

  it('expands IPv6 forms, embedded IPv4 tails and zone ids', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
    expect(parseIpv6('FE80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('2001:DB8:0:0:0:0:0:1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    for (const text of ['1::2::3', '1:2:3:4:5:6:7:8:9', '12345::', ':1', 'g::1', '::1.2.3', '::ffff:1.2.3.04', '1:2:3:4:5:6:7:8::', '']) expect(parseIpv6(text), text).toBeNull();
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 4],
    ['93.184.216.34', 4],
    ['1.1.1.1', 4],
    ['100.63.255.255', 4],
    ['100.128.0.0', 4],
    ['172.15.255.255', 4],
    ['172.32.0.0', 4],
    ['192.0.1.1', 4],
    ['198.20.0.1', 4],
    ['223.255.255.255', 4],
    ['2606:4700::6810:85e5', 6],
    ['2a00:1450:4001:80b::200e', 6],
    ['::ffff:8.8.8.8', 6],
    ['64:ff9b::808:808', 6],
    ['2002:808:808::1', 6],
  ])('%s is public', (address, family) => {
    expect(classifyAddress(address)).toEqual({ public: true, family });
  });

  it.each([
    ['0.0.0.0', 'this_network'],
    ['0.255.255.255', 'this_network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared_cgnat'],
    ['100.127.255.255', 'shared_cgnat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['169.254.0.1', 'link_local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'ietf_protocol'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'relay_6to4'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['64:ff9b:1::1', 'nat64_local'],
    ['100::1', 'discard_only'],
    ['2001::1', 'special_purpose'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'special_purpose'],
    ['2001:2::1', 'special_purpose'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff::1', 'documentation'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'not_global_unicast'],
    ['fc00::1', 'unique_local'],
    ['fdff:ffff::1', 'unique_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%lo', 'link_local'],
    ['febf::1', 'link_local'],
    ['fec0::1', 'not_global_unicast'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['::127.0.0.1', 'not_global_unicast'],
    ['::8.8.8.8', 'not_global_unicast'],
    ['1::', 'not_global_unicast'],
  ])('%s is not public (%s)', (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.public ? null : verdict.range).toBe(range);
  });

  it('reports the embedded IPv4 address of mapped, NAT64 and 6to4 forms', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toMatchObject({ embeddedV4: '127.0.0.1', family: 6 });
    expect(classifyAddress('64:ff9b::a00:1')).toMatchObject({ embeddedV4: '10.0.0.1' });
    expect(classifyAddress('2002:c0a8:101::1')).toMatchObject({ embeddedV4: '192.168.1.1' });
  });

  it('treats anything that is not an address as not public', () => {
    for (const text of ['localhost', '', '2130706433', '0x7f000001', '127.1', '[::1]', '1.2.3.4:80', '::1 ']) {
      expect(classifyAddress(text), text).toEqual({ public: false, family: null, range: 'invalid' });
    }
  });
});
