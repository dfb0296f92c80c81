import path from 'node:path';
import type { Config } from '../../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';

export { FileMissing, type FileStore, FileStoreUnavailable } from './file-store.js';

/** Where `FILE_STORAGE=local` keeps files. */
export function localFilesRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'files');
}

/**
 * The store `FILE_STORAGE` names. Async because the S3 store is imported only when configured:
 * the AWS SDK is large, and an instance on local disk should not pay for loading it at start.
 */
export async function createFileStore(
  config: Pick<Config, 'fileStorage' | 'dataDir' | 's3Endpoint' | 's3Region'>,
): Promise<FileStore> {
  if (config.fileStorage.kind === 'local') return new LocalFileStore(localFilesRoot(config));
  const { S3FileStore } = await import('./s3-store.js');
  return S3FileStore.open({
    bucket: config.fileStorage.bucket,
    prefix: config.fileStorage.prefix,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
  });
}
