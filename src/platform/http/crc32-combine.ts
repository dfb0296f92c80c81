/**
 * CRC-32 of a concatenation from the CRC-32s of its parts (zlib's `crc32_combine`, which Node
 * does not expose): crc(A‖B) = crc(A) · x^(8·|B|) mod P ⊕ crc(B), over GF(2), in zlib's
 * reflected bit order. It lets a spliced body's gzip trailer be made from the kept parts' CRCs
 * and the values' own, without going over the whole body per response (spliced-body.ts).
 * Written by hand after zlib's crc32.c (multmodp, x2nmodp): a few dozen shifts a part.
 */

/** The CRC-32 polynomial, reflected. */
const POLY = 0xedb88320;

/** a · b mod P, both polynomials in reflected order (the x^0 coefficient in the top bit). */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let product = 0;
  let multiplicand = b;
  for (;;) {
    if ((a & m) !== 0) {
      product ^= multiplicand;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    multiplicand = multiplicand & 1 ? (multiplicand >>> 1) ^ POLY : multiplicand >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) mod P for k = 0..31. */
const X_TO_2_TO_THE = (() => {
  const table: number[] = [];
  let p = 1 << 30; // x^1
  for (let k = 0; k < 32; k++) {
    table.push(p);
    p = multiplyModP(p, p);
  }
  return table;
})();

/** x^(n·2^k) mod P. */
function xToTheModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  let rest = n;
  let bit = k;
  while (rest > 0) {
    if (rest % 2 === 1) p = multiplyModP(X_TO_2_TO_THE[bit & 31] as number, p);
    rest = Math.floor(rest / 2);
    bit++;
  }
  return p;
}

/** What appending `length` bytes does to a CRC: made once per length, applied by `crc32Append`. */
export const crc32Shift = (length: number): number => xToTheModP(length, 3);

/** The CRC-32 of A‖B, from crc(A), crc(B) and `crc32Shift(|B|)`. */
export const crc32Append = (crcA: number, crcB: number, shiftB: number): number =>
  (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
