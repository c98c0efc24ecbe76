// readPemFile (SPEC A1): the one reader of a configured PEM private key.
// Each refusal names the file and says what is wrong; none quotes a byte
// of what the file holds (a canary in every file it refuses).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_PEM_FILE_BYTES, readPemFile } from './pem-file.js';

const CANARY = 'MIIEvQ-CANARY-pem-7c1d';

test('A1: a PEM file is read whole; a folder, a file over the bound, an empty one and a missing one are refused by name, never by content', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pem-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const good = path.join(dir, 'key.pem');
  const pem = `-----BEGIN PRIVATE KEY-----\n${CANARY}\n-----END PRIVATE KEY-----\n`;
  writeFileSync(good, pem);
  assert.deepEqual(readPemFile(good), { text: pem });

  const big = path.join(dir, 'big.pem');
  writeFileSync(big, `${CANARY}\n`.repeat(Math.ceil((MAX_PEM_FILE_BYTES + 1) / (CANARY.length + 1))));
  const blank = path.join(dir, 'blank.pem');
  writeFileSync(blank, ' \n\t\n');
  const cases: [string, RegExp][] = [
    [dir, /is not a regular file; give the path of a PEM private key/],
    [big, /is \d+ bytes, too large for a PEM private key/],
    [blank, /the private key file .*blank\.pem is empty/],
    [path.join(dir, 'missing.pem'), /cannot read the private key file .*missing\.pem \(ENOENT\)/],
  ];
  for (const [file, expected] of cases) {
    const read = readPemFile(file);
    assert.ok('problem' in read, file);
    assert.match(read.problem, expected);
    assert.ok(read.problem.includes(file), 'the problem names the file');
    assert.ok(!read.problem.includes(CANARY), 'the problem never quotes the file');
  }
});
