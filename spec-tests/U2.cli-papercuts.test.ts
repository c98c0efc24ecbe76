// #18: the CLI's papercuts, each through the compiled CLI (bin/mcpwire.js,
// built by `npm test` first) against a real server: item 2 (a malformed
// --header or -e never prints its value; mcporter's Name=value is accepted),
// item 6 (mcpwire's own unknown-option message, with did-you-mean, never
// "place it after --"), items 7 and 9 (one exit status for an unknown server
// or tool, 3; 401/403 their own, 8, apart from unreachable, 4), item 10 (the JSON-argument message says what to do and
// quotes nothing). A canary stands for the secret a user would type.

import { runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startHttpFixture } from '../src/testing/http-fixture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const echoServer = [process.execPath, path.join(root, 'examples', 'echo-server.mjs')];
const CANARY = 'sk-live-CANARY-u2-7f3a9c';


/** The compiled CLI from the repository (helpers/cli.ts). */
function mcpwire(args: string[], input?: string): Promise<CliRun> {
  return runCli(args, input === undefined ? {} : { input });
}

describe('#18 item 2: a header or variable given on the command line is never echoed', () => {
  for (const header of [`Authorization Bearer ${CANARY}`, `${CANARY}`, `: ${CANARY}`, `Bad Name: ${CANARY}`]) {
    test(`T4/U1: --header ${JSON.stringify(header.replace(CANARY, '<secret>'))} is a usage error (exit 2) that shows none of it`, async () => {
      const run = await mcpwire(['tools', '--url', 'http://127.0.0.1:9/mcp', '--header', 'X-Fine: ok', '--header', header]);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /the 2nd --header is not "Name: value" or Name=value/);
      assert.ok(!run.stderr.includes(CANARY) && !run.stdout.includes(CANARY), `the secret was printed: ${run.stderr}`);
      assert.ok(!run.stderr.includes('Authorization Bearer') && !run.stderr.includes('Bad Name'), 'no part of the header is quoted');
    });
  }

  test('T4/U1: -e "API_KEY <secret>" (a space for the =) is a usage error that shows none of it', async () => {
    const run = await mcpwire(['tools', '-e', `API_KEY ${CANARY}`, '--', ...echoServer]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the 1st -e is not NAME=value/);
    assert.ok(!run.stderr.includes(CANARY) && !run.stderr.includes('API_KEY'), run.stderr);
  });

  test('T4/U1: --header Name=value (mcporter\'s form) and "Name: value" both reach the server as headers', async (t) => {
    const server = await startHttpFixture(t, { result: (message) => (message.method === 'tools/list' ? { tools: [] } : undefined) });
    const run = await mcpwire(['tools', '--url', server.url, '--header', `Authorization=Bearer ${CANARY}`, '--header', 'X-Trace: a=b:c', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const seen = server.requests.map((request) => request.headers);
    assert.ok(seen.length > 0, 'the server was reached');
    assert.ok(seen.every((h) => h.authorization === `Bearer ${CANARY}`), 'Name=value: the name before the first =, the rest the value');
    assert.ok(seen.every((h) => h['x-trace'] === 'a=b:c'), '"Name: value": the colon came first, so the = belongs to the value');
  });
});

describe('#18 item 6: unknown options get mcpwire\'s own message', () => {
  test('U1: --tiemout is "has no option --tiemout (did you mean --timeout?)", with where a server\'s own flags go; never "place it after"', async () => {
    const run = await mcpwire(['tools', '--tiemout', '5000', '--', ...echoServer]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /mcpwire tools has no option --tiemout \(did you mean --timeout\?\)/);
    assert.match(run.stderr, /A server's own flags go after --, with its command/);
    assert.doesNotMatch(run.stderr, /place it after|end of options marker/);
  });

  test('U1: --header=<secret> given to a command with no such flag quotes only the flag, never what followed =', async () => {
    const run = await mcpwire(['ping', `--heder=${CANARY}`, '--', ...echoServer]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /no option --heder \(did you mean --header\?\)/);
    assert.ok(!run.stderr.includes(CANARY), run.stderr);
  });

  test('U1: a flag that needs a value and got none says so; a switch given a value says it takes none', async () => {
    const missing = await mcpwire(['tools', '--timeout']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--timeout needs a value \(--timeout VALUE\)/);
    const switched = await mcpwire(['tools', '--json=yes', '--', ...echoServer]);
    assert.equal(switched.status, 2);
    assert.match(switched.stderr, /--json is a switch and takes no value/);
  });
});

describe('#18 item 10: the JSON-argument messages', () => {
  test('U1: a broken JSON argument says where and why it breaks and to single-quote the object, and quotes none of it', async () => {
    const run = await mcpwire(['call', 'echo', `{"message": ${CANARY}}`, '--', ...echoServer]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the JSON argument is not valid JSON \(at 1:13: expected a value.*\); put the whole object in single quotes/);
    assert.ok(!run.stderr.includes(CANARY), run.stderr);
    assert.doesNotMatch(run.stderr, /quote them for the shell/);
  });

  test('U1: broken JSON on stdin (-) is named as such', async () => {
    const run = await mcpwire(['call', 'echo', '-', '--', ...echoServer], `{"message": ${CANARY}`);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the JSON on stdin is not valid JSON/);
    assert.ok(!run.stderr.includes(CANARY), run.stderr);
  });
});

describe('#18 items 7 and 9: the exit table', () => {
  function twoServers(t: { after(fn: () => void): void }): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-u2-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'mcpwire.json');
    const server = { command: echoServer[0], args: echoServer.slice(1) };
    writeFileSync(file, JSON.stringify({ mcpServers: { alpha: server, beta: server } }));
    return file;
  }

  test('U1: --server with a key nobody configured is 3, an UnknownToolError with did-you-mean, like an unknown tool; --json says code unknown-tool', async (t) => {
    const file = twoServers(t);
    const server = await mcpwire(['tools', '--server', 'alpah', '--config', file]);
    assert.equal(server.status, 3, server.stderr);
    assert.match(server.stderr, /UnknownToolError: no server named "alpah"; did you mean alpha\?; configured: alpha, beta/);
    const tool = await mcpwire(['call', 'ech', '--config', file, '--server', 'alpha']);
    assert.equal(tool.status, 3, 'the same status for an unknown tool');
    const json = await mcpwire(['tools', '--server', 'nope', '--config', file, '--json']);
    assert.equal(json.status, 3);
    assert.equal((JSON.parse(json.stderr.trim().split("\n").at(-1)!) as { error: { code: string } }).error.code, 'unknown-tool');
  });

  for (const status of [401, 403]) {
    test(`U1/T4: HTTP ${status} exits 8 (auth), with code "auth" in --json; a refused connection stays 4`, async (t) => {
      const server = await startHttpFixture(t, { post: (ex) => ex.status(status) });
      const refused = await mcpwire(['tools', '--url', server.url, '--json']);
      assert.equal(refused.status, 8, refused.stderr);
      const envelope = JSON.parse(refused.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } };
      assert.equal(envelope.error.code, 'auth');
      assert.match(envelope.error.message, new RegExp(`HTTP ${status}.*check the credentials`));
      const text = await mcpwire(['call', 'echo', '--url', server.url]);
      assert.equal(text.status, 8, text.stderr);
      assert.match(text.stderr, /AuthError/);
    });
  }

  test('U1: a port nobody listens on is 4 (closed), not 8', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const run = await mcpwire(['tools', '--url', `http://127.0.0.1:${port}/mcp`]);
    assert.equal(run.status, 4, run.stderr);
  });
});

describe('#18 item 3: an unset ${env:X} fails only its own server', () => {
  function mixed(t: { after(fn: () => void): void }): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-u2-env-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'mcp.json');
    const good = { command: echoServer[0], args: echoServer.slice(1) };
    writeFileSync(file, JSON.stringify({ mcpServers: { broken: { ...good, env: { TOKEN: '${env:MCPWIRE_U2_NEVER_SET}' } }, good } }, null, 2));
    return file;
  }

  test('C5/U1: --server good works; tools lists good and says why broken failed (exit 3); config show and doctor still run', async (t) => {
    const file = mixed(t);
    const only = await mcpwire(['tools', '--server', 'good', '--config', file]);
    assert.equal(only.status, 0, only.stderr);
    assert.match(only.stdout, /echo\(/);

    const all = await mcpwire(['tools', '--config', file]);
    assert.equal(all.status, 3, `the broken server's config problem is the status: ${all.stderr}`);
    assert.match(all.stdout, /echo\(/, 'the good server\'s tools are listed');
    assert.match(all.stdout + all.stderr, /mcp\.json:\d+:\d+ at mcpServers\.broken\.env\.TOKEN: the environment variable MCPWIRE_U2_NEVER_SET is not set/);

    const show = await mcpwire(['config', 'show', '--config', file]);
    assert.equal(show.status, 0, show.stderr);
    assert.match(show.stdout, /broken.*unsupported: .*MCPWIRE_U2_NEVER_SET/);

    const doctor = await mcpwire(['doctor', '--config', file]);
    assert.match(doctor.stdout + doctor.stderr, /MCPWIRE_U2_NEVER_SET/);
    assert.match(doctor.stdout + doctor.stderr, /good/);
  });
});

describe('#18 item 5: a deadline stops the servers at once', () => {
  const faultServer = path.join(root, 'spec-tests', 'fixtures', 'fault-server.mjs');
  for (const mode of ['ignore-term', 'ignore-eof']) {
    test(`U1/L2: --timeout 2000 on a call a ${mode} server never answers: exit 5 soon after 2 s (the graceful ladder took 2–4 s more), and no server left`, { skip: process.platform === 'win32' }, async () => {
      const marker = `u2-deadline-${mode}-${process.pid}`;
      const began = performance.now();
      const run = await mcpwire(['call', 'hang', '--timeout', '2000', '--', process.execPath, faultServer, mode, marker]);
      const tookMs = performance.now() - began;
      assert.equal(run.status, 5, run.stderr);
      // The command's deadline or the request's share of it, whichever fires first on a loaded machine: both name the flag.
      assert.match(run.stderr, /TimeoutError: [^]*--timeout bounds the whole command/);
      // Generous for a loaded machine: process start, 2 s, then SIGTERM and SIGKILL 200 ms apart.
      assert.ok(tookMs < 3_700, `took ${Math.round(tookMs)} ms`);
      const left = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
      assert.equal(left.stdout.trim(), '', `a server is left: ${left.stdout}`);
    });
  }
});

describe('#18 item 1: call asks for progress, and progress keeps a long call alive', () => {
  const everything = path.join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  function codexConfig(t: { after(fn: () => void): void }, timeoutSec: number): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-u2-progress-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'config.toml');
    // A 1.5 s request timeout, and an operation of 3 s that reports progress every 0.5 s.
    writeFileSync(file, `[mcp_servers.every]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(everything)}, "stdio"]\ntool_timeout_sec = ${timeoutSec}\n`);
    return file;
  }

  test('U1/W7: a 3 s operation under a 1.5 s request timeout finishes, since each progress report restarts it; --progress prints them as JSON lines', async (t) => {
    const run = await mcpwire(['call', 'trigger-long-running-operation', 'duration=3', 'steps=6', '--config', codexConfig(t, 1.5), '--progress']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Long running operation completed/i);
    const events = run.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { event: string; progress?: number; total?: number });
    const progress = events.filter((e) => e.event === 'progress');
    assert.ok(progress.length >= 5, `progress reports as JSON lines: ${run.stderr}`);
    assert.deepEqual([progress.at(-1)!.progress, progress.at(-1)!.total], [6, 6], 'the last report is the sixth of six');
  });

  test('U1: piped without --progress the call is quiet on stderr, and still finishes', async (t) => {
    const run = await mcpwire(['call', 'trigger-long-running-operation', 'duration=2', 'steps=4', '--config', codexConfig(t, 1.5)]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '', 'nothing but the result');
  });

  test('U1: a request that times out with no --timeout says the flag that gives it more time', async (t) => {
    const faultServer = path.join(root, 'spec-tests', 'fixtures', 'fault-server.mjs');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-u2-hint-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'config.toml');
    writeFileSync(file, `[mcp_servers.fault]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(faultServer)}]\ntool_timeout_sec = 1\n`);
    const run = await mcpwire(['call', 'hang', '--config', file]);
    assert.equal(run.status, 5, run.stderr);
    assert.match(run.stderr, /TimeoutError: .*no answer within 1000 ms\n {2}each request waits 30 s \(or the config's timeout\); --timeout MS sets the limit/);
  });
});
