import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32Append, crc32Shift } from './crc32-combine.js';

describe('CRC-32 of a concatenation from its parts', () => {
  it("is zlib's CRC-32 of the whole, for any parts (empty ones included)", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 5000 }), { minLength: 1, maxLength: 6 }), (parts) => {
        const buffers = parts.map((part) => Buffer.from(part));
        let crc = crc32(buffers[0] as Buffer);
        for (const part of buffers.slice(1)) crc = crc32Append(crc, crc32(part), crc32Shift(part.length));
        expect(crc).toBe(crc32(Buffer.concat(buffers)) >>> 0);
      }),
      { numRuns: 300 },
    );
  });

  it('holds for a known value: "123456789" is 0xCBF43926 however it is cut', () => {
    const crcOf = (text: string) => crc32(Buffer.from(text));
    expect(crc32Append(crcOf('1234'), crcOf('56789'), crc32Shift(5))).toBe(0xcbf43926);
    expect(crc32Append(crcOf(''), crcOf('123456789'), crc32Shift(9))).toBe(0xcbf43926);
    expect(crc32Append(crcOf('123456789'), crcOf(''), crc32Shift(0))).toBe(0xcbf43926);
  });
});
