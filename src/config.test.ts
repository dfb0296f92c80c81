import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTINGS, startupWarnings } from './config.js';

describe('loadConfig', () => {
  it('has a default for everything, so a bare `npm start` works', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      // issue 19: the safe behaviour unless development mode is asked for (npm run dev)
      production: true,
      logLevel: 'info',
      corsOrigins: [],
      trustProxy: false,
      sessionTtlDays: 30,
      rateLimitAuth: 10,
      rateLimitPublic: 60,
      rateLimitAuthenticated: 1200,
      monthlyQuota: 10000,
      smtpUrl: undefined,
      mailFrom: 'Intake <intake@localhost>',
      captchaVerifyUrls: {
        turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
        hcaptcha: 'https://api.hcaptcha.com/siteverify',
        recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
      },
      kmsProvider: 'local',
      masterKey: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/tmp/intake-x',
      DATABASE_URL: 'postgres://u@h:5432/db',
      DATABASE_SCHEMA: 'intake',
      REDIS_URL: 'redis://127.0.0.1:6379',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: 'https://a.example, https://b.example/',
      TRUST_PROXY: 'true',
      SESSION_TTL_DAYS: '7',
      RATE_LIMIT_AUTH: '50',
      MASTER_KEY: 'ab'.repeat(32),
      RATE_LIMIT_PUBLIC: '5',
      RATE_LIMIT_AUTHENTICATED: '7',
      MONTHLY_QUOTA: '0',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Forms <forms@example.com>',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/t',
      HCAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/h',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/r',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DATABASE_WAIT_S: '5',
      WRITE_QUEUE_LIMIT: '100',
      REQUEST_DEADLINE_MS: '2000',
      FILE_STORAGE: 's3://intake-files/uploads/',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-1',
      FILE_MAX_BYTES: '5000000',
      UPLOAD_MAX_BYTES: '9000000',
      FILE_LINK_TTL_S: '3600',
      CLAMD_URL: 'tcp://127.0.0.1:3310',
      STORAGE_QUOTA_BYTES: '1000000000',
      BRANDING: 'false',
      AUDIT_RETENTION_DAYS: '30',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/tmp/intake-x',
      databaseUrl: 'postgres://u@h:5432/db',
      databaseSchema: 'intake',
      databaseWaitS: 5,
      writeQueueLimit: 100,
      requestDeadlineMs: 2000,
      redisUrl: 'redis://127.0.0.1:6379',
      production: true,
      logLevel: 'warn',
      corsOrigins: ['https://a.example', 'https://b.example'],
      trustProxy: 1,
      sessionTtlDays: 7,
      rateLimitAuth: 50,
      rateLimitPublic: 5,
      rateLimitAuthenticated: 7,
      monthlyQuota: 0,
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'Forms <forms@example.com>',
      captchaVerifyUrls: {
        turnstile: 'http://127.0.0.1:9/t',
        hcaptcha: 'http://127.0.0.1:9/h',
        recaptcha: 'http://127.0.0.1:9/r',
      },
      kmsProvider: 'local',
      masterKey: Buffer.from('ab'.repeat(32), 'hex'),
      webhookAllowPrivate: true,
      fileStorage: { kind: 's3', bucket: 'intake-files', prefix: 'uploads/' },
      s3Endpoint: 'http://127.0.0.1:9000',
      s3Region: 'eu-west-1',
      fileMaxBytes: 5_000_000,
      uploadMaxBytes: 9_000_000,
      fileLinkTtlS: 3600,
      clamdUrl: 'tcp://127.0.0.1:3310',
      storageQuotaBytes: 1_000_000_000,
      branding: false,
      auditRetentionDays: 30,
    });
  });

  it('keeps files on local disk unless FILE_STORAGE names a bucket', () => {
    expect(loadConfig({}).fileStorage).toEqual({ kind: 'local' });
    expect(loadConfig({ FILE_STORAGE: 's3://bucket' }).fileStorage).toEqual({
      kind: 's3',
      bucket: 'bucket',
      prefix: '',
    });
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['DATABASE_SCHEMA', 'Robert"); drop'],
    ['REDIS_URL', 'http://x'],
    ['LOG_LEVEL', 'verbose'],
    ['CORS_ORIGINS', 'not an origin'],
    ['TRUST_PROXY', 'sometimes'],
    ['SESSION_TTL_DAYS', '0'],
    ['RATE_LIMIT_AUTH', '-1'],
    ['KMS_PROVIDER', 'aws'],
    ['RATE_LIMIT_PUBLIC', '0'],
    ['MONTHLY_QUOTA', '-5'],
    ['SMTP_URL', 'http://mail'],
    ['HCAPTCHA_VERIFY_URL', 'ftp://x'],
    ['MASTER_KEY', 'too short'],
    ['WEBHOOK_ALLOW_PRIVATE', 'sometimes'],
    ['MASTER_KEY', 'ab'.repeat(31)],
    ['DATABASE_WAIT_S', '-1'],
    ['WRITE_QUEUE_LIMIT', '0'],
    ['REQUEST_DEADLINE_MS', '10'],
    ['FILE_STORAGE', 'ftp://bucket'],
    ['FILE_STORAGE', 's3://'],
    ['S3_ENDPOINT', 'not a url'],
    ['FILE_MAX_BYTES', '0'],
    ['UPLOAD_MAX_BYTES', '-1'],
    ['FILE_LINK_TTL_S', '0'],
    ['CLAMD_URL', 'http://clamd:3310'],
    ['STORAGE_QUOTA_BYTES', '-1'],
    ['BRANDING', 'hidden'],
    ['AUDIT_RETENTION_DAYS', '0'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });

  it.each([
    ['true', 1],
    ['2', 2],
    ['false', false],
    ['0', false],
  ])('reads TRUST_PROXY=%s as %s trusted proxies', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toBe(expected);
  });

  it('documents every setting', () => {
    for (const setting of SETTINGS) {
      expect(setting.doc.length).toBeGreaterThan(10);
      expect(setting.defaultText).not.toBe('');
    }
  });

  // Issue 19: `npm start` with NODE_ENV unset ran in development mode, the webhook guard off.
  it.each([
    [undefined, true],
    ['', true],
    ['production', true],
    ['test', true],
    ['staging', true],
    ['Development', true],
    ['development', false],
  ])('NODE_ENV=%s: production mode %s (development only when asked for by name)', (raw, production) => {
    expect(loadConfig({ NODE_ENV: raw }).production).toBe(production);
  });
});

describe('startupWarnings', () => {
  const warnings = (env: Record<string, string>) => startupWarnings(loadConfig(env));

  it.each(['0.0.0.0', '::', '192.168.1.20', 'intake.example.com'])(
    'warns about development mode listening beyond loopback (HOST=%s)',
    (host) => {
      const [warning, ...rest] = warnings({ NODE_ENV: 'development', HOST: host });
      expect(rest).toEqual([]);
      expect(warning).toContain('development mode');
      expect(warning).toContain(host);
      expect(warning).toContain('NODE_ENV');
    },
  );

  it.each(['127.0.0.1', '127.0.1.1', '::1', 'localhost', 'LOCALHOST'])(
    'says nothing about development mode on loopback (HOST=%s)',
    (host) => {
      expect(warnings({ NODE_ENV: 'development', HOST: host })).toEqual([]);
    },
  );

  it('says nothing in production mode behind an https:// PUBLIC_URL, wherever it listens', () => {
    expect(warnings({ HOST: '0.0.0.0', PUBLIC_URL: 'https://forms.example.com' })).toEqual([]);
    expect(warnings({ NODE_ENV: 'production', HOST: '::', PUBLIC_URL: 'https://forms.example.com' })).toEqual(
      [],
    );
    expect(warnings({ HOST: '127.0.0.1' })).toEqual([]);
  });

  // Issue 19's review: a Secure cookie over plain HTTP from another machine is dropped by the browser.
  it.each<Record<string, string>>([{}, { PUBLIC_URL: 'http://forms.example.com' }])(
    'warns in production mode beyond loopback without an https:// PUBLIC_URL (%j)',
    (env) => {
      const [warning, ...rest] = warnings({ HOST: '0.0.0.0', ...env });
      expect(rest).toEqual([]);
      expect(warning).toContain('PUBLIC_URL');
      expect(warning).toContain('HTTPS');
    },
  );
});
