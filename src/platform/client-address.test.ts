import { describe, expect, it } from 'vitest';
import { clientBucket } from './client-address.js';

describe('clientBucket', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientBucket('192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const bucket = '2001:db8:1:2::/64';
    expect(clientBucket('2001:db8:1:2::1')).toBe(bucket);
    expect(clientBucket('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(bucket);
    expect(clientBucket('2001:db8:1:2:0:0:0:9')).toBe(bucket);
    expect(clientBucket('2001:db8:1:3::1')).not.toBe(bucket);
  });

  it('spells out :: wherever it stands', () => {
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('takes an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });
});
