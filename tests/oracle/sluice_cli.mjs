// Running the sluice shell from the oracle scripts and reading its CSV output.
import { execFileSync } from 'node:child_process';

// What NULL prints as (-nullvalue), so that it differs from an empty string.
export const NULL = '<<NULL>>';

// RFC 4180 records.
export function parseCsv(text) {
  const records = [];
  let record = [], field = '', quoted = false, fieldQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
      continue;
    }
    if (c === '"') { quoted = true; fieldQuoted = true; }
    else if (c === ',') { record.push(field); field = ''; fieldQuoted = false; }
    else if (c === '\n') { record.push(field); records.push(record); record = []; field = ''; fieldQuoted = false; }
    else field += c;
  }
  if (field !== '' || fieldQuoted || record.length) { record.push(field); records.push(record); }
  return records;
}

// Runs `sql` with `sluice -csv -nullvalue NULL -c`; the output's records, header first.
// Throws (with .stderr) when sluice fails.
export function sluiceRows(sluice, sql, env = {}) {
  const out = execFileSync(sluice, ['-csv', '-nullvalue', NULL, '-c', sql],
    { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  return parseCsv(out);
}
