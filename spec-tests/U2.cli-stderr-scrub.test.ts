// #18 item 20: everything the CLI prints from an error goes through the
// library's scrub. A stdio server prints its environment to stderr and exits:
// the error of tools, call, ping, resources and prompts (text and the --json
// envelope), and of record, carries that stderr tail; no configured env
// value (whatever its name), no ${VAR} result and no -e value may be in it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const SERVER = fileURLToPath(new URL('./fixtures/stderr-echo-server.mjs', import.meta.url));
const CANARIES = {
  /** A secret-looking name: scrubbed before #18 too. */
  SERVICE_API_KEY: 'canary-named-key-6a1f3c',
  /** A name that says nothing: the value is still the config's. */
  PLAIN_SETTING: 'canary-plain-value-8d2e4b',
  /** Interpolated from the host's environment. */
  FROM_HOST: 'canary-interpolated-9c7a15',
  /** Given on the command line with -e. */
  BY_FLAG: 'canary-e-flag-3b5d72',
};
const ECHO_VARS = Object.keys(CANARIES).join(',');

function run(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, RP20_HOST_SECRET: CANARIES.FROM_HOST }, input: '' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function assertClean(what: string, output: string): void {
  for (const [name, value] of Object.entries(CANARIES)) assert.ok(!output.includes(value), `${what}: the value of ${name} was printed:\n${output}`);
}

test('#18 item 20: a config server\'s stderr tail in errors of tools, call, ping, resources, prompts (text and --json) holds none of its env values', (t) => {
  const dir = tempDir(t, 'stderr-scrub');
  const config = path.join(dir, 'mcpwire.json');
  const env = { ECHO_VARS, SERVICE_API_KEY: CANARIES.SERVICE_API_KEY, PLAIN_SETTING: CANARIES.PLAIN_SETTING, FROM_HOST: '${RP20_HOST_SECRET}' };
  writeFileSync(config, JSON.stringify({ mcpServers: { leaky: { command: process.execPath, args: [SERVER], env } } }));
  for (const command of [['tools'], ['call', 'leaky.echo'], ['ping'], ['resources'], ['prompts']]) {
    for (const json of [[], ['--json']]) {
      const { status, output } = run([...command, ...json, '--config', config]);
      const what = `mcpwire ${[...command, ...json].join(' ')}`;
      assert.notEqual(status, 0, what);
      assert.match(output, /starting with SERVICE_API_KEY=\[redacted\] PLAIN_SETTING=\[redacted\] FROM_HOST=\[redacted\]/, `${what} shows the tail, scrubbed:\n${output}`);
      assertClean(what, output);
    }
  }
});

test('#18 item 20: an ad-hoc server\'s -e values are scrubbed from errors, and record\'s own errors are scrubbed too', (t) => {
  const dir = tempDir(t, 'stderr-scrub');
  const flags = ['-e', `ECHO_VARS=BY_FLAG,PLAIN_SETTING`, '-e', `BY_FLAG=${CANARIES.BY_FLAG}`, '-e', `PLAIN_SETTING=${CANARIES.PLAIN_SETTING}`];
  for (const command of [['tools'], ['ping', '--json']]) {
    const { status, output } = run([...command, ...flags, '--', process.execPath, SERVER]);
    assert.notEqual(status, 0);
    assert.match(output, /BY_FLAG=\[redacted\]/, output);
    assertClean(`mcpwire ${command.join(' ')} -e`, output);
  }
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'ping', expect: { error: -32601 } }]));
  for (const mode of [['--ops', ops], ['--proxy']]) {
    const { output } = run(['record', ...mode, '--out', path.join(dir, 'x.jsonl'), ...flags, '--', process.execPath, SERVER, '--no-such-flag']);
    // --proxy passes the server's stderr through to its own (the client's view of the server): that is the server's output, not an error of ours.
    if (mode[0] === '--ops') assertClean('mcpwire record --ops', output);
  }
});
