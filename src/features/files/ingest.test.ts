import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../platform/crypto/envelope.js';
import { countUploadedBytes } from '../../platform/external-memory.js';
import type { FileStore } from '../../platform/files/file-store.js';
import type { Field } from '../forms/schemas.js';
import { ingestFile } from './ingest.js';

vi.mock('../../platform/external-memory.js', () => ({ countUploadedBytes: vi.fn() }));

describe('ingestFile', () => {
  it("counts every byte it reads toward the process's young-generation collections (platform/external-memory.ts)", async () => {
    const chunks = [Buffer.alloc(64 * 1024, 1), Buffer.alloc(64 * 1024, 2), Buffer.alloc(1000, 3)];
    const unused = () => {
      throw new Error('not used by a hashed file');
    };
    const stored = await ingestFile(
      {
        form: { id: 'frm_1', workspaceId: 'wks_1', environment: 'development' },
        field: { id: 'document', type: 'file', label: 'Document' } as Field,
        // hashed: the bytes are read, judged and thrown away, no store needed
        piiMode: 'hashed',
        fileName: 'notes.bin',
        source: Readable.from(chunks),
      },
      {
        store: { put: unused, get: unused, delete: unused } as unknown as FileStore,
        envelope: {} as Envelope,
        recordWriting: unused,
        forgetWriting: unused,
      },
    );
    expect(stored.size).toBe(64 * 1024 * 2 + 1000);
    expect(vi.mocked(countUploadedBytes).mock.calls).toEqual([[64 * 1024], [64 * 1024], [1000]]);
  });
});
