// The public surface (src/index.ts) changes only on purpose: the runtime
// export names and the emitted index.d.ts are compared with a checked-in
// snapshot. After a deliberate change, `npm run api:update` rewrites it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { render, SNAPSHOT } from '../scripts/public-api.mjs';

test('the public API matches spec-tests/public-api.snapshot.txt (run `npm run api:update` after a deliberate change)', async () => {
  assert.equal(await render(), readFileSync(SNAPSHOT, 'utf8'));
});
