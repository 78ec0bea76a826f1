// Writes the seed corpora of the fuzzers that have no corpus in ../shared into OUT_DIR, from what
// is committed here: each seed is a valid input of its kind, so that mutation starts from the
// paths real inputs take. scripts/run_fuzzers.sh runs it before fuzzing.
//
//   node fuzz/make_seeds.mjs OUT_DIR
//
//   seeds/thrift:      a footer, page headers (v1, v2) and a struct, behind the choice byte
//   seeds/http:        answers of a server for opening a file and reading a range
//   seeds/s3_listing:  ListObjectsV2 pages and an error body
//   seeds/sql:         statements from the sqllogictest files and the TPC-H queries
import { Codec, Type, dataPage, plain, writeParquet } from '../tests/parquet/handmade_parquet.mjs';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

const root = new URL('.', import.meta.url).pathname;
const seeds = process.argv[2];
rmSync(seeds, { recursive: true, force: true });
const put = (target, name, bytes) => {
  mkdirSync(join(seeds, target), { recursive: true });
  writeFileSync(join(seeds, target, name), bytes);
};

// Thrift: the pieces of a small handmade file.
{
  const file = join(os.tmpdir(), `sluice-seed-${process.pid}.parquet`);
  writeParquet(file, [
    { name: 'a', type: Type.INT64, codec: Codec.UNCOMPRESSED, pages: [dataPage({ rows: 3, values: plain.int64([1, 2, 3]) })] },
    { name: 'b', type: Type.BYTE_ARRAY, convertedType: 0, optional: true, codec: Codec.UNCOMPRESSED,
      pages: [dataPage({ version: 2, rows: 3, defined: [true, false, true], values: plain.string(['x', 'yz']) })] },
  ]);
  const bytes = readFileSync(file);
  rmSync(file);
  const footerLength = bytes.readUInt32LE(bytes.length - 8);
  const footer = bytes.subarray(bytes.length - 8 - footerLength, bytes.length - 8);
  const choice = (c, body) => Buffer.concat([Buffer.from([c]), body]);
  put('thrift', 'footer', choice(0, footer));
  put('thrift', 'page_header_v1', choice(1, bytes.subarray(4, 64)));
  const second = bytes.indexOf(Buffer.from([0x15, 0x06]), 10); // the v2 page's header (type 3)
  put('thrift', 'page_header_v2', choice(1, bytes.subarray(second, second + 64)));
  put('thrift', 'struct_walk', choice(5, footer));
}

// HTTP: a file of 1000 bytes whose last 100 come with the size probe; then bytes 16-48.
{
  const body = (n, from) => Buffer.from(Array.from({ length: n }, (_, i) => (from + i) % 251));
  const partial = (first, last, total, extra = '') => Buffer.concat([
    Buffer.from(`HTTP/1.1 206 Partial Content\r\nContent-Range: bytes ${first}-${last}/${total}\r\n` +
      `Content-Length: ${last - first + 1}\r\nETag: "v1"\r\n${extra}\r\n`), body(last - first + 1, first)]);
  const separator = Buffer.from('@@@');
  put('http', 'tail_then_range', Buffer.concat([Buffer.from([16, 2]), partial(900, 999, 1000), separator, partial(16, 48, 1000)]));
  put('http', 'whole_object', Buffer.concat([Buffer.from([3, 1]),
    Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n'), body(40, 0)]));
  put('http', 'not_found', Buffer.concat([Buffer.from([0, 0]),
    Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found')]));
  put('http', 'chunked_range', Buffer.concat([Buffer.from([16, 2]), partial(900, 999, 1000), separator,
    Buffer.from('HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 16-48/1000\r\nTransfer-Encoding: chunked\r\n' +
      'ETag: "v1"\r\n\r\n21\r\n'), body(33, 16), Buffer.from('\r\n0\r\n\r\n')]));
}

// S3 listings: two pages joined by a continuation token, and an error.
{
  const contents = (keys) => keys.map(([key, size]) =>
    `<Contents><Key>${key}</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>&quot;x&quot;</ETag>` +
    `<Size>${size}</Size><StorageClass>STANDARD</StorageClass></Contents>`).join('');
  const page = (keys, token) => '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket</Name><Prefix>data/</Prefix>' +
    `<KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>${token ? 'true' : 'false'}</IsTruncated>` +
    (token ? `<NextContinuationToken>${token}</NextContinuationToken>` : '') + contents(keys) + '</ListBucketResult>';
  put('s3_listing', 'two_pages', Buffer.from('\x00' + page([['data/a.parquet', 10], ['data/b&amp;c.parquet', 20]], '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=') +
    '@@@' + page([['data/d.parquet', 30], ['data/sub/e.parquet', 40], ['data/f.csv', 50]])));
  put('s3_listing', 'error', Buffer.from('\x01<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>' +
    '<Message>Access Denied &#x2014; check the policy</Message><RequestId>1</RequestId></Error>'));
}

// SQL: every query and statement of the sqllogictest files (each its own seed).
{
  const files = [];
  const walk = (dir) => readdirSync(dir).forEach((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test')) files.push(path);
  });
  walk(join(root, '../tests/sql'));
  let n = 0;
  for (const file of files.sort()) {
    const blocks = readFileSync(file, 'utf8').split(/\n\s*\n/);
    for (const block of blocks) {
      const lines = block.split('\n').filter((line) => !line.startsWith('#'));
      if (!lines.length || !/^(query|statement)/.test(lines[0])) continue;
      const end = lines.indexOf('----');
      const sql = lines.slice(1, end < 0 ? undefined : end).join('\n').trim();
      if (sql) put('sql', `s${String(n++).padStart(4, '0')}`, sql);
    }
  }
}
