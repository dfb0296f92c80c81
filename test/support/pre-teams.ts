import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * The database the release before teams made (`test/fixtures/make-pre-teams.ts`), for the
 * migration's test: its DATA_DIR (the SQLite file, the files' bytes, the master key), what the
 * script made (`manifest.json`), and on PostgreSQL its schema restored from a plain dump.
 */
export const PRE_TEAMS = path.resolve(import.meta.dirname, '../fixtures/pre-teams');
const DUMPED_SCHEMA = 'intake_pre_teams';

export interface PreTeamsManifest {
  users: Array<{
    id: string;
    email: string;
    password: string;
    token: string;
    environments: string[];
    forms: Array<{ id: string; environment: string; submissions: string[]; webhook: string }>;
    keys: Array<{ id: string; key: string; kind: 'secret' | 'publishable'; environment: string }>;
  }>;
}

export function engineDir(): string {
  return path.join(PRE_TEAMS, process.env.DATABASE_URL ? 'postgres' : 'sqlite');
}

export function readManifest(): PreTeamsManifest {
  return JSON.parse(fs.readFileSync(path.join(engineDir(), 'manifest.json'), 'utf8'));
}

/** A copy of the fixture's DATA_DIR in `dataDir`. */
export function copyDataDir(dataDir: string): void {
  fs.cpSync(path.join(engineDir(), 'data'), dataDir, { recursive: true });
  for (const file of fs.readdirSync(dataDir)) fs.chmodSync(path.join(dataDir, file), 0o700);
  fs.chmodSync(path.join(dataDir, 'master.key'), 0o600);
}

/** The dumped schema restored as `schema` (which must not exist yet). */
export async function restorePostgres(url: string, schema: string): Promise<void> {
  const dump = fs
    .readFileSync(path.join(PRE_TEAMS, 'postgres', 'dump.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
    .replaceAll(DUMPED_SCHEMA, schema);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(dump);
  } finally {
    await client.end();
  }
}
