import { encode } from 'uqr';

/**
 * A link as a QR code in SVG (the Share panel's, issue 25 item 7): dark modules on a white
 * square whatever the page's theme (a camera reads dark on light), a quiet zone of four
 * modules as the standard asks, and a <title> naming where it leads, so that a screen reader
 * says what the picture is when the SVG is opened or inlined.
 */

/** The quiet zone, in modules (ISO/IEC 18004 asks for four). */
const QUIET_ZONE = 4;
/** Pixels a module when the SVG is opened at its own size: a 33-module code is 328 px. */
const MODULE_PIXELS = 8;

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Each row's dark runs as one path: `M x y h n v 1 h -n z` a run, far shorter than one square a module. */
function darkPath(modules: boolean[][]): string {
  let path = '';
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      path += `M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h${start - x}z`;
    }
  });
  return path;
}

export function qrSvg(link: string): string {
  // M: up to 15% of the code may be damaged (a crease, a smudge) and still read; no border of the library's, ours is the quiet zone
  const { data, size } = encode(link, { ecc: 'M', border: 0 });
  const side = size + QUIET_ZONE * 2;
  const pixels = side * MODULE_PIXELS;
  const name = escapeXml(`QR code that opens ${link}`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="qr-title" viewBox="0 0 ${side} ${side}" width="${pixels}" height="${pixels}" shape-rendering="crispEdges">` +
    `<title id="qr-title">${name}</title>` +
    `<rect width="${side}" height="${side}" fill="#ffffff"/>` +
    `<path fill="#000000" d="${darkPath(data)}"/>` +
    '</svg>'
  );
}
