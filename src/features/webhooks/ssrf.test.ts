import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { Problem } from '../../platform/problem.js';
import {
  assertDeliverableUrl,
  deliverableUrlError,
  ForbiddenAddressError,
  guardedLookup,
  isForbiddenAddress,
  ssrfGuardOn,
  unguardedLookup,
} from './ssrf.js';

/** The private-address guard of webhook URLs (API.md §7). */
describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '192.0.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:0:127.0.0.1',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.250',
    '192.88.99.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    // Teredo (2001::/32): a tunnel whose far end is an IPv4 address the owner does not see
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    // documentation (2001:db8::/32): never a real host
    '2001:db8::1',
    '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    '0:0:0:0:0:0:0:1',
    'not an address',
    '',
  ])('forbids %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2001:1::1',
    '2001:db7:ffff::1',
    '2001:db9::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    'fbff::1',
  ])('allows %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('ssrfGuardOn', () => {
  it('is on outside development mode (NODE_ENV unset included), and off there with WEBHOOK_ALLOW_PRIVATE=true', () => {
    // issue 19: a bare `npm start` (NODE_ENV unset) had the guard off
    expect(ssrfGuardOn(loadConfig({}))).toBe(true);
    expect(ssrfGuardOn(loadConfig({ NODE_ENV: 'development' }))).toBe(false);
    expect(ssrfGuardOn(loadConfig({ NODE_ENV: 'production' }))).toBe(true);
    expect(ssrfGuardOn(loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: 'true' }))).toBe(false);
    expect(ssrfGuardOn(loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: 'false' }))).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('assertDeliverableUrl', () => {
  const guarded = { guard: true };

  async function refusal(url: string, options = guarded) {
    try {
      await assertDeliverableUrl(url, options);
    } catch (error) {
      expect(error).toBeInstanceOf(Problem);
      const problem = error as Problem;
      expect(problem.status).toBe(400);
      expect(problem.code).toBe('invalid_parameter');
      expect(problem.options.errors).toHaveLength(1);
      return problem.options.errors?.[0];
    }
    return undefined;
  }

  it.each([
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fd00:ec2::254]/',
    'https://2130706433/', // 127.0.0.1 as one number
    'http://0x7f.1/',
    'http://0/',
    'http://localhost:3000/hook',
    'http://LOCALHOST/hook',
  ])('refuses %s with forbidden_address when guarded', async (url) => {
    expect(await refusal(url)).toMatchObject({ field: 'url', code: 'forbidden_address' });
  });

  it.each(['http://localhost./hook', 'http://api.localhost/hook', 'http://a.b.LOCALHOST./'])(
    'refuses %s, a loopback name whatever resolvers say of it (RFC 6761)',
    async (url) => {
      expect(await refusal(url)).toMatchObject({ field: 'url', code: 'forbidden_address' });
    },
  );

  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]/',
    'http://localhost:3000/hook',
    'http://169.254.169.254/',
  ])('accepts %s when not guarded (development, WEBHOOK_ALLOW_PRIVATE)', async (url) => {
    await expect(assertDeliverableUrl(url, { guard: false })).resolves.toBeUndefined();
  });

  it('accepts a public IP literal when guarded, without resolving anything', async () => {
    await expect(assertDeliverableUrl('https://93.184.216.34/hook', guarded)).resolves.toBeUndefined();
    await expect(assertDeliverableUrl('https://[2606:4700::1111]/hook', guarded)).resolves.toBeUndefined();
  });

  it.each([
    ['ftp://hooks.example.com/a'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['not a url'],
    ['//hooks.example.com/a'],
    ['http://'],
  ])('refuses %s with format, guarded or not', async (url) => {
    expect(await refusal(url)).toMatchObject({ field: 'url', code: 'format' });
    expect(await refusal(url, { guard: false })).toMatchObject({ field: 'url', code: 'format' });
  });

  it('refuses credentials in the URL, guarded or not', async () => {
    for (const url of ['https://user:pass@hooks.example.com/a', 'https://user@hooks.example.com/a']) {
      const error = await refusal(url, { guard: false });
      expect(error).toMatchObject({ field: 'url', code: 'format' });
      expect(error?.message).toMatch(/credentials/);
    }
  });

  it('takes a name that does not resolve now: it resolves to no forbidden address, deliveries judge it again', async () => {
    // .test is reserved (RFC 6761): no resolver answers it, with or without a network
    expect(await deliverableUrlError('https://hooks.example.test/a', guarded)).toBeUndefined();
  });

  it('refuses a .invalid host name, which never resolves, saying so', async () => {
    // .invalid never resolves (RFC 6761)
    const error = await deliverableUrlError('https://hooks.example.invalid/a', guarded);
    expect(error).toMatchObject({ field: 'url', code: 'unresolvable' });
    expect(error?.message).toMatch(/does not resolve/);
    // unguarded, nothing is resolved
    expect(await deliverableUrlError('https://hooks.example.invalid/a', { guard: false })).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  function lookup(hostname: string, options: object | number) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>(
      (resolve) => {
        guardedLookup(hostname, options as never, (error, address, family) =>
          resolve({ error, address, family }),
        );
      },
    );
  }

  it('says a name under .invalid is not found without asking a name server (RFC 6761), in both callback forms', async () => {
    const dns = (await import('node:dns')).default;
    const asked = vi.spyOn(dns, 'lookup');
    try {
      for (const name of ['hooks.example.invalid', 'HOOKS.EXAMPLE.INVALID.', 'invalid']) {
        const single = await lookup(name, {});
        expect(single.error?.code).toBe('ENOTFOUND');
        expect(single.address).toBe('');
        const all = await lookup(name, { all: true });
        expect(all.error?.code).toBe('ENOTFOUND');
        expect(all.address).toEqual([]);
      }
      // and where deliveries may reach any address (the guard off), the same
      const unguarded = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        unguardedLookup('hooks.example.invalid', { all: true }, (error) => resolve(error)),
      );
      expect(unguarded?.code).toBe('ENOTFOUND');
      expect(asked).not.toHaveBeenCalled();
    } finally {
      asked.mockRestore();
    }
  });

  it('fails with ForbiddenAddressError for a name resolving to loopback, in both callback forms', async () => {
    const single = await lookup('localhost', {});
    expect(single.error).toBeInstanceOf(ForbiddenAddressError);
    expect(single.error?.code).toBe('EFORBIDDENADDRESS');
    expect(single.error?.message).toMatch(/localhost resolves to/);
    const all = await lookup('localhost', { all: true });
    expect(all.error).toBeInstanceOf(ForbiddenAddressError);
    const family = await lookup('localhost', 4);
    expect(family.error).toBeInstanceOf(ForbiddenAddressError);
  });

  it('fails for a loopback IP literal too (a lookup of a literal returns it)', async () => {
    const result = await lookup('127.0.0.1', { all: true });
    expect(result.error).toBeInstanceOf(ForbiddenAddressError);
  });

  it('passes a public address through in the form asked for', async () => {
    const single = await lookup('93.184.216.34', {});
    expect(single.error).toBeNull();
    expect(single.address).toBe('93.184.216.34');
    expect(single.family).toBe(4);
    const all = await lookup('93.184.216.34', { all: true });
    expect(all.error).toBeNull();
    expect(all.address as LookupAddress[]).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('passes resolver errors through', async () => {
    const result = await lookup('hooks.example.invalid', {});
    expect(result.error?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(result.error).not.toBeInstanceOf(ForbiddenAddressError);
  });

  it('keeps a connection from reaching a loopback server through a name', async () => {
    const net = await import('node:net');
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const error = await new Promise<Error | undefined>((resolve) => {
        const socket = net.connect({ host: 'localhost', port, lookup: guardedLookup as never });
        socket.on('connect', () => {
          socket.destroy();
          resolve(undefined);
        });
        socket.on('error', resolve);
      });
      expect(error).toBeInstanceOf(ForbiddenAddressError);
    } finally {
      server.close();
    }
  });
});
