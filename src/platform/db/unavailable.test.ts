import { describe, expect, it } from 'vitest';
import { toProblem } from '../errors.js';
import { isStorageUnavailable, isTimeout, StorageUnavailable, unavailableProblem } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('which errors mean "the storage cannot serve now"', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', withCode('57P01')],
    ['PostgreSQL starting up (57P03)', withCode('57P03')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection failure (08006)', withCode('08006')],
    ['a statement timeout (57014)', withCode('57014')],
    ['a standby after a failover (25006)', withCode('25006')],
    ['a session ended for idling in its transaction (25P03)', withCode('25P03')],
    ['a deadlock (40P01)', withCode('40P01')],
    ['a lost connection, without a code', new Error('Connection terminated unexpectedly')],
    ['a client-side query timeout', new Error('Query read timeout')],
    ['a full SQLite disk', withCode('SQLITE_FULL')],
    ['an SQLite I/O error', withCode('SQLITE_IOERR_WRITE')],
    ['a read-only SQLite database', withCode('SQLITE_READONLY')],
    ['a failed fdatasync', withCode('EIO')],
    ['a full disk for a file', withCode('ENOSPC')],
    ['one wrapped as a cause', new Error('migration failed', { cause: withCode('ECONNREFUSED') })],
    [
      'every address of a host refused',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ],
    ["Intake's own refusal", new StorageUnavailable('queue full')],
  ])('%s is', (_name, error) => {
    expect(isStorageUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['an SQLite constraint', withCode('SQLITE_CONSTRAINT_FOREIGNKEY')],
    ['a protocol violation (08P01): a bug or a misconfiguration', withCode('08P01')],
    ['a syntax error (42601)', withCode('42601')],
    ['a wrong password (28P01)', withCode('28P01')],
    ['a missing database (3D000)', withCode('3D000')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['nothing at all', undefined],
  ])('%s is not', (_name, error) => {
    expect(isStorageUnavailable(error)).toBe(false);
  });

  it('answers 503 service_unavailable with Retry-After, the full disk said so', () => {
    const problem = unavailableProblem(withCode('SQLITE_FULL'));
    expect(problem.status).toBe(503);
    expect(problem.code).toBe('service_unavailable');
    expect(problem.options.headers?.['retry-after']).toBe('1');
    expect(problem.detail).toMatch(/storage is full/);
    expect(unavailableProblem(new StorageUnavailable('busy', 7)).options.headers?.['retry-after']).toBe('7');
  });

  it('leaves a client that aborted its upload a 4xx, not an outage', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(toProblem(aborted as never)?.status).toBe(400);
    expect(toProblem(withCode('ECONNREFUSED') as never)?.status).toBe(503);
  });

  it('tells timeouts apart (logged as errors: a slow query looks the same)', () => {
    expect(isTimeout(withCode('57014'))).toBe(true);
    expect(isTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isTimeout(withCode('ECONNREFUSED'))).toBe(false);
  });
});
