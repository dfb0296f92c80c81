import { constants, crc32, deflateRawSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { keptPerKey } from '../../shared/memo.js';
import { crc32Append, crc32Shift } from './crc32-combine.js';

/**
 * A body made once, with holes for what each response has of its own (a page's session id
 * and idempotency key): the parts between the holes are kept as bytes and compressed once,
 * and each response is the parts with its values spliced in, gzip included. The compressed
 * parts are raw deflate ended by a sync flush (byte-aligned, not final), so they follow one
 * another in one deflate stream; a value goes between them as a stored block (RFC 1951
 * §3.2.4), and an empty final block ends it. Each part is compressed on its own (none refers
 * back into another), which costs some ratio (a form's page gzips about 5 % larger) and nothing else. The
 * gzip trailer's CRC-32 is put together from the parts' CRCs, taken once, and the values' own
 * (crc32-combine.ts): a response goes over its values' bytes only, not the whole body.
 *
 * Written by hand: compression libraries compress a whole body per call; this page is asked
 * for many thousand times a minute (API.md §11.1) and differs by 44 bytes between responses.
 */
export class SplicedBody {
  /** Each part's CRC-32 and what appending it does to a CRC (crc32-combine.ts). */
  private readonly partCrcs: readonly number[];
  private readonly partShifts: readonly number[];
  private readonly partsLength: number;

  private constructor(
    private readonly parts: readonly Buffer[],
    private readonly deflated: readonly Buffer[],
  ) {
    this.partCrcs = parts.map((part) => crc32(part) >>> 0);
    this.partShifts = parts.map((part) => crc32Shift(part.length));
    this.partsLength = parts.reduce((sum, part) => sum + part.length, 0);
  }

  /**
   * `text` cut at each occurrence of the holes' markers, in order of appearance; undefined when
   * a marker is missing or the holes do not come as `holes` says (then the body cannot be kept).
   */
  static cut(text: string, markers: readonly string[]): { body: SplicedBody; holes: number[] } | undefined {
    const parts: Buffer[] = [];
    const holes: number[] = [];
    let from = 0;
    for (;;) {
      let next = -1;
      let which = -1;
      markers.forEach((marker, index) => {
        const at = text.indexOf(marker, from);
        if (at !== -1 && (next === -1 || at < next)) {
          next = at;
          which = index;
        }
      });
      if (next === -1) break;
      parts.push(Buffer.from(text.slice(from, next)));
      holes.push(which);
      from = next + (markers[which] as string).length;
    }
    parts.push(Buffer.from(text.slice(from)));
    if (markers.some((_, index) => !holes.includes(index))) return undefined;
    const deflated = parts.map((part) =>
      deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }),
    );
    return { body: new SplicedBody(parts, deflated), holes };
  }

  /** The body with `values` in its holes (one value a hole, in order), as is. */
  identity(values: readonly string[]): Buffer {
    const chunks: Buffer[] = [this.parts[0] as Buffer];
    values.forEach((value, index) => {
      chunks.push(Buffer.from(value), this.parts[index + 1] as Buffer);
    });
    return Buffer.concat(chunks);
  }

  /** The same body as a gzip member (RFC 1952). */
  gzip(values: readonly string[]): Buffer {
    const chunks: Buffer[] = [GZIP_HEADER, this.deflated[0] as Buffer];
    let crc = this.partCrcs[0] as number;
    let length = this.partsLength;
    values.forEach((value, index) => {
      const bytes = Buffer.from(value);
      chunks.push(storedBlock(bytes), bytes, this.deflated[index + 1] as Buffer);
      // each CRC from scratch: Node 22's `crc32(data, value)` answers 0 for an empty buffer with no memory behind it (zlib's crc32 of NULL)
      crc = crc32Append(crc, crc32(bytes) >>> 0, shiftFor(bytes.length));
      crc = crc32Append(crc, this.partCrcs[index + 1] as number, this.partShifts[index + 1] as number);
      length += bytes.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    chunks.push(FINAL_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}

/** The shifts of values' lengths: a page's tokens are of one or two lengths. */
const shiftFor = keptPerKey<number, number>(crc32Shift);

/** ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block with BFINAL set: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** The header of a stored block of `bytes` (not final; ≤ 65,535 bytes: a value is a token). */
function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) throw new RangeError('a spliced value is at most 65,535 bytes');
  const header = Buffer.alloc(5);
  header[0] = 0x00;
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return header;
}

const ENCODINGS = ['gzip', 'identity'];

/** Whether the request's `Accept-Encoding` takes gzip (and prefers it to nothing). */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean =>
  acceptEncoding !== undefined && negotiate(acceptEncoding, ENCODINGS) === 'gzip';
