// #17: what the CLI says a server speaks: the client's own era once it
// reports one, else the era the negotiated version belongs to.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { McpClient } from '../client/client.js';
import type { ServerStatus } from '../toolsource/supervisor.js';
import { protocolOfClient, protocolOfStatus, protocolText, statusWithEra } from './protocol.js';

const client = (protocolVersion: string | undefined, era?: string) => ({ profile: protocolVersion === undefined ? undefined : { protocolVersion }, ...(era ? { era } : {}) }) as unknown as McpClient;
const status = (protocolVersion: string | undefined, era?: string) => ({ key: 's', protocolVersion, ...(era ? { era } : {}) }) as unknown as ServerStatus;

test('#17: the era follows from the version when the client does not say it; the client\'s word wins when it does', () => {
  assert.deepEqual(protocolOfClient(client('2025-11-25')), { protocolVersion: '2025-11-25', era: 'legacy' });
  assert.deepEqual(protocolOfClient(client('2026-07-28')), { protocolVersion: '2026-07-28', era: 'modern' });
  assert.deepEqual(protocolOfClient(client('2026-07-28', 'modern')), { protocolVersion: '2026-07-28', era: 'modern' });
  assert.deepEqual(protocolOfClient(client('2099-01-01', 'legacy')), { protocolVersion: '2099-01-01', era: 'legacy' }, 'reported, not derived');
  assert.equal(protocolOfClient(client(undefined)), undefined, 'not connected: nothing to show');
  assert.equal(protocolText({ protocolVersion: '2025-11-25', era: 'legacy' }), 'protocol 2025-11-25 (legacy)');
  assert.equal(protocolText({ protocolVersion: 'draft' }), 'protocol draft');
});

test('#17: a status gets the era of its own field, else of the client seen at start for the same version, else of its version', () => {
  assert.equal(statusWithEra(status('2025-11-25')).era, 'legacy');
  assert.equal(statusWithEra(status('2025-11-25', 'modern')).era, 'modern');
  assert.equal(statusWithEra(status('2099-01-01'), { protocolVersion: '2099-01-01', era: 'legacy' }).era, 'legacy');
  assert.ok(!('era' in statusWithEra(status(undefined), { protocolVersion: '2025-11-25', era: 'legacy' })), 'a server that is down speaks nothing now');
  assert.deepEqual(protocolOfStatus(status('2026-07-28')), { protocolVersion: '2026-07-28', era: 'modern' });
});
