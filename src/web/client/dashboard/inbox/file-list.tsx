import { sizeInWords } from '../../../../shared/messages.js';
import { inWorkspace } from '../api/client.js';
import { checksumOnly, downloadHref, fileBadge, fileFacts, hasThumbnail, type StoredFile } from './files.js';

/**
 * A file answer in a response's detail (API.md §12): each file by its name, type and size, with
 * a Download link to the owner's route (an attachment, never shown in the dashboard's own
 * page). A small image has a thumbnail: an <img> of the same route, which draws a picture and
 * runs nothing (no frame or object ever holds a respondent's bytes). A file kept as a checksum
 * only says so, and has nothing to download.
 */
export function FileList({ submissionId, files }: { submissionId: string; files: readonly StoredFile[] }) {
  return (
    <ul class="files">
      {files.map((file, index) =>
        file.id && !checksumOnly(file) ? (
          <li key={file.id} class="files__file">
            {hasThumbnail(file) ? (
              // the name beside it says what it is: the picture adds nothing to read out
              <img
                class="files__thumb"
                src={inWorkspace(downloadHref(submissionId, file.id))}
                alt=""
                width={64}
                height={64}
                loading="lazy"
                decoding="async"
              />
            ) : (
              <Badge file={file} />
            )}
            <span class="files__about">
              <span class="files__name">{file.name}</span>
              <span class="files__facts">{fileFacts(file)}</span>
            </span>
            <a
              class="button button--small files__download"
              href={inWorkspace(downloadHref(submissionId, file.id))}
              download
            >
              Download<span class="visually-hidden"> {file.name}</span>
            </a>
          </li>
        ) : (
          // (no id to key by: its checksum, and its place for two of the same file)
          <li key={`${file.sha256}-${index}`} class="files__file">
            <Badge file={file} />
            <span class="files__about">
              <span class="files__name">Only a checksum was kept</span>
              <span class="files__facts">
                {sizeInWords(file.size)}, SHA-256 <code class="files__checksum">{file.sha256}</code>
              </span>
            </span>
          </li>
        ),
      )}
    </ul>
  );
}

/** A thumbnail's stand-in, so that names line up: the kind of file in a word (its name says it already: hidden from a reader). */
function Badge({ file }: { file: StoredFile }) {
  return (
    <span class="files__thumb files__badge" aria-hidden="true">
      {fileBadge(file)}
    </span>
  );
}
