import http from 'node:http';
import { createInflateRaw } from 'node:zlib';
import autocannon from 'autocannon';

/** Load generation (autocannon, in this process) and latency statistics. */

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  responses: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationS: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A Buffer is sent as it is (a prebuilt multipart body, say); only a string's `[<id>]` are replaced. */
  body?: string | Buffer;
  connections: number;
  durationS: number;
  /**
   * Replace every `[<id>]` in the body by a unique id, so no two bodies are equal. (Not
   * autocannon's own `idReplacement`: it announces a Content-Length of 27 characters per id
   * while its ids vary in length, which stalls the connection.)
   */
  uniqueBodies?: boolean;
  /** Requests per second across all connections (autocannon's overallRate); unset: as fast as answered. */
  rate?: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * One autocannon run. Latencies are taken from autocannon's per-response event with
 * sub-millisecond precision (its own histogram rounds to whole milliseconds).
 */
export async function drive(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const body = options.body;
  const parts = typeof body === 'string' ? body.split('[<id>]') : undefined;
  let counter = 0;
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body,
    connections: options.connections,
    duration: options.durationS,
    timeout: 30,
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.uniqueBodies && parts && parts.length > 1
      ? {
          requests: [
            {
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                body: parts.join(`${run}-${(counter++).toString(36)}`),
              }),
            },
          ],
        }
      : {}),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  const ok2xx = Object.entries(statusCodes)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    responses: latencies.length,
    ok2xx,
    non2xx: latencies.length - ok2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationS: result.duration,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive connection; resolves with the status, headers and body. */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The status and headers of a GET, without reading its body (the connection is closed). */
export function probe(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? '') });
      res.destroy();
    });
    req.on('error', reject);
  });
}

/** `count` sequential requests on one kept-alive connection: p50, p99 and max in ms. */
export async function sequential(
  url: string,
  headers: Record<string, string>,
  count: number,
  warmup = 20,
): Promise<{ p50: number; p99: number; max: number; count: number }> {
  for (let i = 0; i < warmup; i++) await expectOk(url, headers);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await expectOk(url, headers);
    times.push(performance.now() - started);
  }
  const sorted = Float64Array.from(times).sort();
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0, count };
}

async function expectOk(url: string, headers: Record<string, string>): Promise<void> {
  const response = await request(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.text}`);
}

/** What a streamed export's reader reports. */
export interface Download {
  status: number;
  contentType: string;
  records: number;
  bytes: number;
  firstByteMs: number;
  /** True when the export was cut off after `limitMs` (the figures then cover the part read). */
  cut: boolean;
}

const downloadOf = (
  res: http.IncomingMessage,
  counts: Pick<Download, 'records' | 'bytes' | 'firstByteMs' | 'cut'>,
): Download => ({
  status: res.statusCode ?? 0,
  contentType: String(res.headers['content-type'] ?? ''),
  ...counts,
});

/**
 * Streams a CSV export to its end, counting records (newlines outside quoted values)
 * without keeping the body. Returns the records (header included) and the bytes.
 */
export function streamCsv(
  url: string,
  headers: Record<string, string>,
  limitMs = Number.POSITIVE_INFINITY,
): Promise<Download> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let cut = false;
      const timer = Number.isFinite(limitMs)
        ? setTimeout(() => {
            cut = true;
            res.destroy();
            finish();
          }, limitMs)
        : undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (!cut && lastByte !== 0x0a && bytes > 0) records++;
        resolve(downloadOf(res, { records, bytes, firstByteMs, cut }));
      };
      let firstByteMs = 0;
      let records = 0;
      let bytes = 0;
      let quoted = false;
      let lastByte = 0x0a;
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        let at = 0;
        // jump between quotes and newlines with indexOf rather than looking at every byte
        while (at < chunk.length) {
          if (quoted) {
            const close = chunk.indexOf(0x22, at);
            if (close < 0) break;
            quoted = false;
            at = close + 1;
            continue;
          }
          const quote = chunk.indexOf(0x22, at);
          const newline = chunk.indexOf(0x0a, at);
          if (newline >= 0 && (quote < 0 || newline < quote)) {
            records++;
            at = newline + 1;
          } else if (quote >= 0) {
            quoted = true;
            at = quote + 1;
          } else {
            break;
          }
        }
        if (chunk.length > 0) lastByte = chunk[chunk.length - 1] as number;
      });
      res.on('end', finish);
      res.on('error', (error) => (cut ? finish() : reject(error)));
    });
    req.on('error', reject);
  });
}

/**
 * Streams an XLSX export to its end, inflating the sheet as it comes to count its rows (the
 * header row included, as `streamCsv` counts the header record), without keeping the bytes.
 *
 * The sheet is read from its local header on, by a raw inflate that stops where its deflate stream
 * ends. Not fflate's streaming `Unzip`: for an entry written with a data descriptor (sizes after
 * the data, as a streamed workbook must) it ends the entry at the first bytes that look like a ZIP
 * signature, and 4 such bytes turn up by chance in about one export of 1M rows in twenty (a run
 * failed with its "unexpected EOF"). Spreadsheet programs read the central directory instead.
 */
export function streamXlsx(
  url: string,
  headers: Record<string, string>,
  limitMs = Number.POSITIVE_INFINITY,
): Promise<Download> {
  const started = performance.now();
  const SHEET = Buffer.from('xl/worksheets/sheet1.xml');
  const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let cut = false;
      let done = false;
      let firstByteMs = 0;
      let bytes = 0;
      let records = 0;
      // the last bytes of the sheet read, so a `<row ` split between two pieces is counted once
      let carry = '';
      // the bytes before the sheet's data, kept until its local header is whole
      let head: Buffer | undefined = Buffer.alloc(0);
      const sheet = createInflateRaw();
      let sheetEnded = false;
      sheet.on('data', (data: Buffer) => {
        const text = carry + data.toString('latin1');
        records += text.split('<row ').length - 1;
        carry = text.slice(-4);
      });
      sheet.on('end', () => {
        sheetEnded = true;
      });
      // bytes after the sheet's deflate stream (the zip's directory) are no concern of the count
      sheet.on('error', (error) => {
        if (!sheetEnded && !cut) reject(error);
      });
      const timer = Number.isFinite(limitMs)
        ? setTimeout(() => {
            cut = true;
            res.destroy();
            finish();
          }, limitMs)
        : undefined;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const result = () => resolve(downloadOf(res, { records, bytes, firstByteMs, cut }));
        if (cut || sheetEnded) result();
        else sheet.once('end', result).once('error', result);
      };
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        if (head === undefined) {
          if (!sheetEnded) sheet.write(chunk);
          return;
        }
        head = Buffer.concat([head, chunk]);
        // the sheet's local header: signature, 26 bytes, its name's and extra field's lengths, the name
        for (let at = head.indexOf(LOCAL_HEADER); at !== -1; at = head.indexOf(LOCAL_HEADER, at + 1)) {
          if (head.length < at + 30) return;
          const nameLength = head.readUInt16LE(at + 26);
          const extraLength = head.readUInt16LE(at + 28);
          const dataAt = at + 30 + nameLength + extraLength;
          if (head.length < dataAt) return;
          if (!head.subarray(at + 30, at + 30 + nameLength).equals(SHEET)) continue;
          const rest = head.subarray(dataAt);
          head = undefined;
          sheet.write(rest);
          return;
        }
      });
      res.on('end', () => {
        sheet.end();
        finish();
      });
      res.on('error', (error) => (cut ? finish() : reject(error)));
    });
    req.on('error', reject);
  });
}
