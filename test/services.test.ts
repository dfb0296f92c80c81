import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/mail.js';
import { answersPing, findOrStartRedis } from './support/redis-setup.js';
import {
  browserTestsSkip,
  findProgram,
  isExecutable,
  REDIS_TESTS_SKIP,
  requireAll,
  skippedLine,
} from './support/services.js';

/**
 * Issue 19 item 7: `npm test` on a machine with Node.js alone. What the tests need from the
 * machine is found, started, or skipped with a line that says how to install it
 * (test/support/services.ts); these check the finding, the starting and the line.
 */
describe('what the tests need from the machine', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-services-'));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  /** A folder of its own for each test, empty: a PATH with no program on it. */
  const emptyFolder = () => fs.mkdtempSync(path.join(scratch, 'bin-'));

  it('a program is what PATH holds as an executable file: not a plain file, not a device', () => {
    const bin = emptyFolder();
    const plain = path.join(bin, 'redis-server');
    fs.writeFileSync(plain, '#!/bin/sh\n');
    expect(isExecutable(plain)).toBe(false);
    expect(findProgram('redis-server', bin)).toBeUndefined();
    fs.chmodSync(plain, 0o755);
    expect(findProgram('redis-server', `/nonexistent${path.delimiter}${bin}`)).toBe(plain);
    // how a program is hidden to try all this: /dev/null mounted over it
    expect(isExecutable('/dev/null')).toBe(false);
  });

  it('without Chromium the browser tests are skipped, with the command that installs it', () => {
    expect(browserTestsSkip(path.join(scratch, 'chromium'))).toEqual({
      tests: 'browser tests',
      missing: `no Chromium at ${path.join(scratch, 'chromium')}`,
      install: 'apt-get install chromium, or set CHROMIUM_PATH',
    });
    expect(browserTestsSkip(process.execPath)).toBeUndefined();
  });

  it('the skips are said in one line', () => {
    const browser = { tests: 'browser tests', missing: 'no Chromium', install: 'apt-get install chromium' };
    expect(skippedLine([browser, REDIS_TESTS_SKIP])).toBe(
      'Skipped: browser tests (no Chromium: apt-get install chromium), ' +
        'Redis rate-limit tests (no Redis at 127.0.0.1:6379 and no redis-server to start: apt-get install redis-server)',
    );
  });

  it('INTAKE_TEST_REQUIRE_ALL is on for 1 or true, off when unset, empty, 0 or false', () => {
    const saved = process.env.INTAKE_TEST_REQUIRE_ALL;
    try {
      const with_ = (value: string | undefined) => {
        if (value === undefined) delete process.env.INTAKE_TEST_REQUIRE_ALL;
        else process.env.INTAKE_TEST_REQUIRE_ALL = value;
        return requireAll();
      };
      expect([with_('1'), with_('true'), with_(undefined), with_(''), with_('0'), with_('false')]).toEqual([
        true,
        true,
        false,
        false,
        false,
        false,
      ]);
    } finally {
      if (saved === undefined) delete process.env.INTAKE_TEST_REQUIRE_ALL;
      else process.env.INTAKE_TEST_REQUIRE_ALL = saved;
    }
  });

  it('no Redis where it is looked for and no redis-server: nothing (the Redis tests are then skipped)', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    expect(await findOrStartRedis({ defaultUrl: nobody, searchPath: emptyFolder() })).toBeUndefined();
  });

  // Under INTAKE_TEST_REQUIRE_ALL (CI) a missing redis-server fails here rather than skipping.
  it.runIf(requireAll() || findProgram('redis-server'))(
    'no Redis where it is looked for: a redis-server of its own, stopped afterwards',
    async () => {
      const nobody = `redis://127.0.0.1:${await freePort()}`;
      const redis = await findOrStartRedis({ defaultUrl: nobody });
      expect(redis?.started).toBe(findProgram('redis-server'));
      expect(redis?.url).not.toBe(nobody);
      expect(await answersPing(redis?.url ?? nobody)).toBe(true);
      await redis?.stop();
      expect(await answersPing(redis?.url ?? nobody)).toBe(false);
    },
  );
});
