import { type Static, Type } from '@sinclair/typebox';
import { EnvironmentQuery, StringEnum, Timestamp } from '../../platform/http/schemas.js';

/** The submission resource's schemas (API.md §6), each enum defined once. */

export const SUBMISSION_STATUSES = ['accepted', 'flagged', 'quarantined', 'partial'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
const StatusSchema = StringEnum(SUBMISSION_STATUSES);

/** A file as an answer holds it (API.md §12); a hashed file keeps only its name's hash, size and checksum. */
export const FileDescriptorOut = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'fil_…; absent for a hashed file (no bytes kept)' })),
    name: Type.String({ description: 'The original name (masked under PII masked; sha256:… under hashed)' }),
    type: Type.Optional(Type.String({ description: 'The type read from the bytes' })),
    size: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    url: Type.Optional(
      Type.String({
        description: 'A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S)',
      }),
    ),
  },
  { additionalProperties: false },
);
const Answer = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String()),
  Type.Array(FileDescriptorOut, { description: 'A file field: its files' }),
]);
export const SubmitBody = Type.Object(
  {
    answers: Type.Record(Type.String(), Type.Unknown(), { description: 'fieldId → value' }),
    sessionId: Type.Optional(Type.String({ maxLength: 200 })),
    captchaToken: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export const SubmitResult = Type.Object({
  id: Type.String(),
  formId: Type.String(),
  environment: Type.String(),
  status: StatusSchema,
  createdAt: Timestamp,
});
export const SubmissionOut = Type.Object({
  id: Type.String(),
  formId: Type.String(),
  environment: Type.String(),
  answers: Type.Record(Type.String(), Answer),
  sessionId: Type.Union([Type.String(), Type.Null()]),
  status: StatusSchema,
  read: Type.Boolean(),
  starred: Type.Boolean(),
  language: Type.Union([Type.String(), Type.Null()], {
    description:
      'The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it',
  }),
  notes: Type.Array(
    Type.Object({
      id: Type.String(),
      text: Type.String(),
      createdAt: Timestamp,
      author: Type.Union(
        [
          Type.Object({
            userId: Type.String(),
            email: Type.String({ description: 'Their address when they wrote the note' }),
            keyId: Type.Optional(
              Type.String({ description: 'Written with this API key (made by the member named)' }),
            ),
          }),
          Type.Null(),
        ],
        { description: 'Who wrote it; null for notes written before Intake kept authors' },
      ),
    }),
  ),
  createdAt: Timestamp,
});

/** A yes/no switch of the CSV export: `1` or `true` turns it on. */
const CsvFlag = (description: string) => StringEnum(['1', '0', 'true', 'false'], { description });
export const isOn = (flag: string | undefined): boolean => flag === '1' || flag === 'true';

export const ResponsesQuery = Type.Object({
  form_id: Type.Optional(Type.String({ maxLength: 200 })),
  environment: Type.Optional(EnvironmentQuery),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  status: Type.Optional(StatusSchema),
  starred: Type.Optional(Type.Boolean()),
  read: Type.Optional(Type.Boolean()),
  format: Type.Optional(
    Type.String({
      maxLength: 20,
      description: 'csv, xlsx or ndjson: every matching response as a download; absent: a page of JSON',
    }),
  ),
  // The export's options for people opening it in a spreadsheet (API.md §6.2): headers and notes with
  // format=csv or xlsx, bom with format=csv only.
  headers: Type.Optional(
    StringEnum(['ids', 'labels'], {
      description: 'format=csv or xlsx: head the field columns with their ids (default) or their labels',
    }),
  ),
  bom: Type.Optional(
    CsvFlag('format=csv: start the file with a UTF-8 byte-order mark (Excel reads é right)'),
  ),
  notes: Type.Optional(
    CsvFlag("format=csv or xlsx: add a `notes` column, each response's notes oldest first"),
  ),
});
export type ResponsesQueryInput = Static<typeof ResponsesQuery>;
export const SubmissionIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
export const OptionalScope = Type.Object({
  form_id: Type.Optional(Type.String({ maxLength: 200 })),
  environment: Type.Optional(EnvironmentQuery),
});
