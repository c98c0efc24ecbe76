// Review: the file store finds only the records the file holds; a server key
// that names a member of Object.prototype ("constructor", "toString",
// "__proto__") used to find that member (a function: structuredClone threw
// DataCloneError at the first listing; "__proto__": an empty record).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FilePinStore } from './store.js';

test('a server key named like an Object.prototype member has no record until one is set', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-pins-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'pins.json');
  writeFileSync(file, JSON.stringify({ version: 1, servers: {} }));
  const store = new FilePinStore(file);
  for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) assert.equal(store.get(key), undefined, key);
  store.set('constructor', { tools: {} });
  assert.deepEqual(store.get('constructor')?.tools, {});
});
