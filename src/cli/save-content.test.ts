// `call --save DIR` (#18 item 14): names that stay inside DIR whatever the
// server puts in a URI, extensions from the MIME type, no file replaced.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { extensionFor, saveBinaryContent } from './save-content.js';

const blob = (uri: string, mimeType?: string) => ({ type: 'resource' as const, resource: { uri, blob: Buffer.from(uri).toString('base64'), ...(mimeType ? { mimeType } : {}) } });

test('U1: extensions from the MIME type: known ones, a plain subtype, else bin', () => {
  assert.equal(extensionFor('image/png'), 'png');
  assert.equal(extensionFor('image/jpeg; q=1'), 'jpg');
  assert.equal(extensionFor('audio/wav'), 'wav');
  assert.equal(extensionFor('application/pdf'), 'pdf');
  assert.equal(extensionFor('image/x-foo'), 'x-foo');
  assert.equal(extensionFor('application/vnd.openxmlformats-officedocument.wordprocessingml.document'), 'bin');
  assert.equal(extensionFor('../../etc'), 'bin');
  assert.equal(extensionFor(undefined), 'bin');
});

test('T4/U1: a URI\'s name is used only when it is a plain file name; nothing is written outside DIR', (t) => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-save-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const dir = path.join(parent, 'out');
  const saved = saveBinaryContent(
    {
      content: [
        blob('file:///reports/chart.png', 'image/png'),
        blob('file:///x/..%2F..%2Fevil.sh', 'text/x-sh'),
        blob('file:///../../etc/passwd'),
        blob('memo://.hidden.txt', 'text/plain'),
        blob('not a uri', 'application/json'),
        { type: 'text', text: 'not saved' },
      ],
    },
    dir,
    'mcp.srv.fetch',
  );
  assert.deepEqual(readdirSync(parent), ['out'], 'nothing beside DIR');
  assert.deepEqual([...saved.values()].map((file) => path.relative(dir, file)), ['chart.png', 'evil.sh', 'fetch-3.bin', 'fetch-4.txt', 'fetch-5.json']);
  assert.equal(readFileSync(saved.get(0)!, 'utf8'), 'file:///reports/chart.png', 'base64 decoded');
  assert.equal(saved.has(5), false, 'text is printed, not saved');
});
