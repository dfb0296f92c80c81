import path from 'node:path';

/**
 * Every setting Intake reads from the environment, declared once: the parser, the
 * defaults and the README's configuration table all come from this list.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string; absent means the embedded SQLite database. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests give each run its own). */
  databaseSchema: string | undefined;
  /** Seconds to wait at start for an unreachable PostgreSQL before giving up. */
  databaseWaitS: number;
  /** Submissions waiting for the writer beyond which new ones are refused at once (503). */
  writeQueueLimit: number;
  /** Milliseconds a request may wait for the storage before it is answered 503. */
  requestDeadlineMs: number;
  redisUrl: string | undefined;
  /** Production mode (the default): off only with NODE_ENV=development (`npm run dev`). */
  production: boolean;
  logLevel: string;
  corsOrigins: string[];
  /** How many proxies in front of Intake to trust in X-Forwarded-For; false trusts none. */
  trustProxy: number | false;
  sessionTtlDays: number;
  /** Credential attempts per minute per client IP, and failed log-ins per minute per e-mail address. */
  rateLimitAuth: number;
  /** Anonymous submissions per minute per client IP. */
  rateLimitPublic: number;
  /** Keyed submissions per minute per user. */
  rateLimitAuthenticated: number;
  /** Accepted submissions per user, environment and calendar month (UTC); 0 is unlimited. */
  monthlyQuota: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where people reach Intake (`https://forms.example.com`): the origin of the links its mail holds. */
  publicUrl: string | undefined;
  captchaVerifyUrls: { turnstile: string; hcaptcha: string; recaptcha: string };
  kmsProvider: 'local';
  /** 32 bytes; absent means generated once into DATA_DIR/master.key. */
  masterKey: Buffer | undefined;
  /** Outside development mode, let webhooks reach private and loopback addresses (the SSRF guard off). */
  webhookAllowPrivate: boolean;
  /** Where files are kept (API.md §12): `DATA_DIR/files`, or an S3-compatible bucket under a prefix. */
  fileStorage: { kind: 'local' } | { kind: 's3'; bucket: string; prefix: string };
  /** The S3 endpoint (any S3-compatible store); absent means AWS's own for the region. */
  s3Endpoint: string | undefined;
  s3Region: string;
  /** The largest file any field may accept, in bytes. */
  fileMaxBytes: number;
  /** The largest request body carrying files, in bytes (413 beyond). */
  uploadMaxBytes: number;
  /** Seconds a signed file link (`/files/{token}`) stays valid. */
  fileLinkTtlS: number;
  /** `tcp://host:port` of a clamd that scans every file before it is kept; absent means no scanning. */
  clamdUrl: string | undefined;
  /** Bytes of files kept per user and environment; 0 means unlimited. */
  storageQuotaBytes: number;
  /** The hosted pages' "Powered by Intake" credit; false hides it on every form (a form hides its own with `ui.branding: false`). */
  branding: boolean;
  /** Days an audit log entry is kept (API.md §14). */
  auditRetentionDays: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

interface Setting<K extends keyof Config> {
  name: string;
  key: K;
  doc: string;
  defaultText: string;
  parse: (raw: string | undefined, env: Env) => Config[K];
}

const fail = (name: string, message: string, raw: string): never => {
  throw new ConfigError(`${name} ${message} (got ${JSON.stringify(raw)})`);
};

const integer =
  (name: string, fallback: number, min: number, max: number) =>
  (raw: string | undefined): number => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      return fail(name, `must be an integer from ${min} to ${max}`, raw);
    }
    return value;
  };

const flag =
  (name: string, fallback: boolean) =>
  (raw: string | undefined): boolean => {
    if (raw === undefined || raw === '') return fallback;
    const lower = raw.toLowerCase();
    if (['true', '1', 'yes'].includes(lower)) return true;
    if (['false', '0', 'no'].includes(lower)) return false;
    return fail(name, 'must be true or false', raw);
  };

const optionalUrl =
  (name: string, protocols: string[]) =>
  (raw: string | undefined): string | undefined => {
    if (raw === undefined || raw === '') return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return fail(name, 'must be a URL', raw);
    }
    if (!protocols.includes(url.protocol)) {
      return fail(name, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`, raw);
    }
    return raw;
  };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const SETTINGS = [
  {
    name: 'HOST',
    key: 'host',
    doc: 'Address to listen on: one address (a name such as `localhost` listens on the first address it resolves to).',
    defaultText: '127.0.0.1',
    parse: (raw) => raw || '127.0.0.1',
  } satisfies Setting<'host'>,
  {
    name: 'PORT',
    key: 'port',
    doc: 'Port to listen on (0 picks a free one).',
    defaultText: '3000',
    parse: integer('PORT', 3000, 0, 65535),
  } satisfies Setting<'port'>,
  {
    name: 'DATA_DIR',
    key: 'dataDir',
    doc: 'Folder of the embedded SQLite database (`DATA_DIR/intake.db`) and of the generated master key.',
    defaultText: './data',
    parse: (raw) => path.resolve(raw || './data'),
  } satisfies Setting<'dataDir'>,
  {
    name: 'DATABASE_URL',
    key: 'databaseUrl',
    doc: 'A `postgres://` URL: store everything in that PostgreSQL database instead of SQLite.',
    defaultText: '(embedded SQLite)',
    parse: optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']),
  } satisfies Setting<'databaseUrl'>,
  {
    name: 'DATABASE_SCHEMA',
    key: 'databaseSchema',
    doc: 'PostgreSQL schema holding the tables (created when missing).',
    defaultText: 'public',
    parse: (raw, _env) => {
      if (raw === undefined || raw === '') return undefined;
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) {
        return fail('DATABASE_SCHEMA', 'must be a lowercase SQL identifier', raw);
      }
      return raw;
    },
  } satisfies Setting<'databaseSchema'>,
  {
    name: 'DATABASE_WAIT_S',
    key: 'databaseWaitS',
    doc: 'Seconds to wait at start for PostgreSQL to accept connections (retrying with backoff) before giving up.',
    defaultText: '30',
    parse: integer('DATABASE_WAIT_S', 30, 0, 86_400),
  } satisfies Setting<'databaseWaitS'>,
  {
    name: 'WRITE_QUEUE_LIMIT',
    key: 'writeQueueLimit',
    doc: 'Submissions waiting to be written beyond which new ones are answered 503 with `Retry-After` at once, instead of waiting ever longer.',
    defaultText: '5000',
    parse: integer('WRITE_QUEUE_LIMIT', 5000, 1, 1_000_000),
  } satisfies Setting<'writeQueueLimit'>,
  {
    name: 'REQUEST_DEADLINE_MS',
    key: 'requestDeadlineMs',
    doc: 'Milliseconds a request may wait for the database (a queued write, a connection, a query) before it is answered 503 with `Retry-After`.',
    defaultText: '10000',
    parse: integer('REQUEST_DEADLINE_MS', 10_000, 100, 600_000),
  } satisfies Setting<'requestDeadlineMs'>,
  {
    name: 'REDIS_URL',
    key: 'redisUrl',
    doc: 'A `redis://` URL: keep rate-limit counters in Redis, shared by several instances.',
    defaultText: '(in memory)',
    parse: optionalUrl('REDIS_URL', ['redis:', 'rediss:']),
  } satisfies Setting<'redisUrl'>,
  {
    name: 'NODE_ENV',
    key: 'production',
    doc: '`development` (what `npm run dev` sets) turns development mode on: webhooks may then reach private addresses, the session cookie is not `Secure`, and client errors (4xx) are logged with their stack trace at debug level. Anything else, unset included, is production mode; a service in development mode listening beyond loopback says so at start.',
    defaultText: 'production',
    // Development mode only when asked for by name: a bare `npm start` on a server must not
    // turn the webhook private-address guard off for anyone who signs up (issue 19).
    parse: (raw) => raw !== 'development',
  } satisfies Setting<'production'>,
  {
    name: 'LOG_LEVEL',
    key: 'logLevel',
    doc: `One of ${LOG_LEVELS.join(', ')}.`,
    defaultText: 'info',
    parse: (raw) => {
      if (raw === undefined || raw === '') return 'info';
      if (!LOG_LEVELS.includes(raw)) return fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`, raw);
      return raw;
    },
  } satisfies Setting<'logLevel'>,
  {
    name: 'CORS_ORIGINS',
    key: 'corsOrigins',
    doc: 'Comma-separated origins allowed to call the non-public endpoints from a browser.',
    defaultText: '(none)',
    parse: (raw) => {
      if (!raw) return [];
      return raw
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)
        .map((origin) => {
          try {
            return new URL(origin).origin;
          } catch {
            return fail('CORS_ORIGINS', 'must be a comma-separated list of origins', raw);
          }
        });
    },
  } satisfies Setting<'corsOrigins'>,
  {
    name: 'TRUST_PROXY',
    key: 'trustProxy',
    doc: 'Proxies in front of Intake whose `X-Forwarded-For` entries to trust for the client address: `true` for one (your own proxy), a number for a chain; only the entries those proxies appended count.',
    defaultText: 'false',
    parse: (raw) => {
      if (raw === undefined || raw === '') return false;
      const lower = raw.toLowerCase();
      if (['false', '0', 'no'].includes(lower)) return false;
      if (['true', 'yes'].includes(lower)) return 1;
      const hops = Number(raw);
      if (Number.isInteger(hops) && hops >= 1 && hops <= 10) return hops;
      return fail('TRUST_PROXY', 'must be true, false or a number of proxies from 1 to 10', raw);
    },
  } satisfies Setting<'trustProxy'>,
  {
    name: 'SESSION_TTL_DAYS',
    key: 'sessionTtlDays',
    doc: 'Lifetime of a session token, in days.',
    defaultText: '30',
    parse: integer('SESSION_TTL_DAYS', 30, 1, 365),
  } satisfies Setting<'sessionTtlDays'>,
  {
    name: 'RATE_LIMIT_AUTH',
    key: 'rateLimitAuth',
    doc: 'Attempts per minute per client IP (sign-up, log-in, password resets), and failed log-ins per minute per e-mail address, beyond which only clients with no recent failed log-in may try that account.',
    defaultText: '10',
    parse: integer('RATE_LIMIT_AUTH', 10, 1, 1_000_000),
  } satisfies Setting<'rateLimitAuth'>,
  {
    name: 'RATE_LIMIT_PUBLIC',
    key: 'rateLimitPublic',
    doc: 'Anonymous submissions per minute, per client IP.',
    defaultText: '60',
    parse: integer('RATE_LIMIT_PUBLIC', 60, 1, 10_000_000),
  } satisfies Setting<'rateLimitPublic'>,
  {
    name: 'RATE_LIMIT_AUTHENTICATED',
    key: 'rateLimitAuthenticated',
    doc: 'Submissions with an API key per minute, per user.',
    defaultText: '1200',
    parse: integer('RATE_LIMIT_AUTHENTICATED', 1200, 1, 10_000_000),
  } satisfies Setting<'rateLimitAuthenticated'>,
  {
    name: 'MONTHLY_QUOTA',
    key: 'monthlyQuota',
    doc: 'Accepted submissions per user and environment per calendar month (UTC); 0 means unlimited.',
    defaultText: '10000',
    parse: integer('MONTHLY_QUOTA', 10_000, 0, 1_000_000_000),
  } satisfies Setting<'monthlyQuota'>,
  {
    name: 'SMTP_URL',
    key: 'smtpUrl',
    doc: 'An `smtp://` or `smtps://` URL for outgoing mail; without it mail is written as `.eml` files under `DATA_DIR/mail`.',
    defaultText: '(files in DATA_DIR/mail)',
    parse: optionalUrl('SMTP_URL', ['smtp:', 'smtps:']),
  } satisfies Setting<'smtpUrl'>,
  {
    name: 'MAIL_FROM',
    key: 'mailFrom',
    doc: 'The sender of the mail Intake sends.',
    defaultText: 'Intake <intake@localhost>',
    parse: (raw) => raw || 'Intake <intake@localhost>',
  } satisfies Setting<'mailFrom'>,
  {
    name: 'PUBLIC_URL',
    key: 'publicUrl',
    doc: 'The origin people reach Intake at (`https://forms.example.com`), for the links in its mail (password resets). Without it a link is made only for a request to this machine itself (a loopback address or HOST); set it in production.',
    defaultText: '(none)',
    parse: (raw) => {
      if (raw === undefined || raw === '') return undefined;
      try {
        const url = new URL(raw);
        if ((url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search)
          return url.origin;
      } catch {
        // refused below
      }
      return fail('PUBLIC_URL', 'must be an http(s) origin, such as https://forms.example.com', raw);
    },
  } satisfies Setting<'publicUrl'>,
  {
    name: 'TURNSTILE_VERIFY_URL',
    key: 'captchaVerifyUrls',
    doc: 'CAPTCHA verify endpoints (`TURNSTILE_VERIFY_URL`, `HCAPTCHA_VERIFY_URL`, `RECAPTCHA_VERIFY_URL`), each defaulting to its provider’s own.',
    defaultText: 'the providers’ own',
    parse: (_raw, env) => ({
      turnstile:
        optionalUrl('TURNSTILE_VERIFY_URL', ['http:', 'https:'])(env.TURNSTILE_VERIFY_URL) ??
        'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      hcaptcha:
        optionalUrl('HCAPTCHA_VERIFY_URL', ['http:', 'https:'])(env.HCAPTCHA_VERIFY_URL) ??
        'https://api.hcaptcha.com/siteverify',
      recaptcha:
        optionalUrl('RECAPTCHA_VERIFY_URL', ['http:', 'https:'])(env.RECAPTCHA_VERIFY_URL) ??
        'https://www.google.com/recaptcha/api/siteverify',
    }),
  } satisfies Setting<'captchaVerifyUrls'>,
  {
    name: 'KMS_PROVIDER',
    key: 'kmsProvider',
    doc: 'Key management for encrypted secrets: `local` (a master key held by Intake).',
    defaultText: 'local',
    parse: (raw) => {
      if (raw === undefined || raw === '' || raw === 'local') return 'local';
      return fail('KMS_PROVIDER', 'must be local', raw);
    },
  } satisfies Setting<'kmsProvider'>,
  {
    name: 'MASTER_KEY',
    key: 'masterKey',
    doc: 'The local master key: 32 bytes as 64 hex or 44 base64 characters. Set the same one on every instance sharing a database.',
    defaultText: '(generated into DATA_DIR/master.key)',
    parse: (raw) => {
      if (raw === undefined || raw === '') return undefined;
      const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
      if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(raw) && key.toString('base64') !== raw)) {
        return fail('MASTER_KEY', 'must be 32 bytes written as 64 hex or 44 base64 characters', '(hidden)');
      }
      return key;
    },
  } satisfies Setting<'masterKey'>,
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    key: 'webhookAllowPrivate',
    doc: '`true` lets webhooks reach loopback, private, link-local and metadata addresses outside development mode (refused there otherwise, at registration and at delivery).',
    defaultText: 'false',
    parse: flag('WEBHOOK_ALLOW_PRIVATE', false),
  } satisfies Setting<'webhookAllowPrivate'>,
  {
    name: 'FILE_STORAGE',
    key: 'fileStorage',
    doc: 'Where uploaded files are kept: `local` (under `DATA_DIR/files`) or `s3://bucket/prefix` (any S3-compatible store: see `S3_ENDPOINT`, `S3_REGION`, and `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`).',
    defaultText: 'local',
    parse: (raw) => {
      if (raw === undefined || raw === '' || raw === 'local') return { kind: 'local' } as const;
      const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
      if (!match?.[1]) return fail('FILE_STORAGE', 'must be local or s3://bucket[/prefix]', raw);
      const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
      return { kind: 's3', bucket: match[1], prefix: prefix === '' ? '' : `${prefix}/` } as const;
    },
  } satisfies Setting<'fileStorage'>,
  {
    name: 'S3_ENDPOINT',
    key: 's3Endpoint',
    doc: 'The S3-compatible store’s URL (MinIO, Garage, R2 …); unset means AWS S3 itself. Paths are used path-style when it is set.',
    defaultText: '(AWS S3)',
    parse: optionalUrl('S3_ENDPOINT', ['http:', 'https:']),
  } satisfies Setting<'s3Endpoint'>,
  {
    name: 'S3_REGION',
    key: 's3Region',
    doc: 'The S3 region.',
    defaultText: 'us-east-1',
    parse: (raw) => raw || 'us-east-1',
  } satisfies Setting<'s3Region'>,
  {
    name: 'FILE_MAX_BYTES',
    key: 'fileMaxBytes',
    doc: 'The largest file a field may accept, in bytes (a field’s `maxFileSize` may not exceed it).',
    defaultText: '104857600 (100 MiB)',
    parse: integer('FILE_MAX_BYTES', 100 * 1024 * 1024, 1, 1024 ** 4),
  } satisfies Setting<'fileMaxBytes'>,
  {
    name: 'UPLOAD_MAX_BYTES',
    key: 'uploadMaxBytes',
    doc: 'The largest request body carrying files, in bytes; larger is refused with 413.',
    defaultText: '209715200 (200 MiB)',
    parse: integer('UPLOAD_MAX_BYTES', 200 * 1024 * 1024, 1024, 1024 ** 4),
  } satisfies Setting<'uploadMaxBytes'>,
  {
    name: 'FILE_LINK_TTL_S',
    key: 'fileLinkTtlS',
    doc: 'Seconds a signed file link (`/files/{token}`, in responses, CSV, webhooks and mail) stays valid.',
    defaultText: '604800 (7 days)',
    parse: integer('FILE_LINK_TTL_S', 7 * 24 * 3600, 1, 10 * 365 * 24 * 3600),
  } satisfies Setting<'fileLinkTtlS'>,
  {
    name: 'CLAMD_URL',
    key: 'clamdUrl',
    doc: '`tcp://host:3310` of a clamd: every file is scanned before its submission is acknowledged (an infected one is refused; clamd unreachable is 503).',
    defaultText: '(no scanning)',
    parse: optionalUrl('CLAMD_URL', ['tcp:']),
  } satisfies Setting<'clamdUrl'>,
  {
    name: 'STORAGE_QUOTA_BYTES',
    key: 'storageQuotaBytes',
    doc: 'Bytes of files kept per user and environment; uploads beyond it are refused with 429 `quota_exceeded`. 0 means unlimited.',
    defaultText: '0 (unlimited)',
    parse: integer('STORAGE_QUOTA_BYTES', 0, 0, 1024 ** 5),
  } satisfies Setting<'storageQuotaBytes'>,
  {
    name: 'BRANDING',
    key: 'branding',
    doc: '`false` hides the "Powered by Intake" line at the foot of every hosted form (a form hides its own with `ui.branding: false`).',
    defaultText: 'true',
    parse: flag('BRANDING', true),
  } satisfies Setting<'branding'>,
  {
    name: 'AUDIT_RETENTION_DAYS',
    key: 'auditRetentionDays',
    doc: 'Days an entry of a workspace’s audit log is kept; the hourly retention job deletes older ones.',
    defaultText: '365',
    parse: integer('AUDIT_RETENTION_DAYS', 365, 1, 100 * 365),
  } satisfies Setting<'auditRetentionDays'>,
] as const;

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * What the service says at start about a configuration that works but should not be left so:
 * development mode (webhooks reaching private addresses, a cookie without `Secure`) on an
 * address others can reach. On loopback it is what a developer's own machine is for.
 */
export function startupWarnings(config: Pick<Config, 'production' | 'host' | 'publicUrl'>): string[] {
  if (LOOPBACK_HOST.test(config.host)) return [];
  if (!config.production) {
    return [
      `development mode (NODE_ENV=development) while listening on ${config.host}, beyond loopback: ` +
        'webhooks may reach private addresses and the session cookie is not Secure. Unset NODE_ENV ' +
        '(production mode is the default) wherever anyone else can reach this service.',
    ];
  }
  // Browsers keep a Secure cookie only from HTTPS (or loopback): over plain HTTP from another
  // machine, signing in to the dashboard would seem to do nothing.
  if (config.publicUrl?.startsWith('https://')) return [];
  return [
    `listening on ${config.host} without an https:// PUBLIC_URL: the dashboard's session cookie is ` +
      'Secure, so browsers on other machines sign in only through HTTPS. Put Intake behind a ' +
      'TLS-terminating proxy and set PUBLIC_URL=https://… to its address.',
  ];
}

export function loadConfig(env: Env = process.env): Config {
  const entries = SETTINGS.map((setting) => [setting.key, setting.parse(env[setting.name], env)]);
  return Object.freeze(Object.fromEntries(entries)) as Config;
}
