// #18 items 12 and 4, through the compiled CLI (bin/mcpwire.js) in temporary
// folders: `mcpwire add` / `remove` / `list` / `import` write the project's
// mcpwire.json or the user's file ($MCPWIRE_USER_CONFIG points it into the
// test's folder), keep the rest of the file, write atomically and 0600 for
// the user; then `call KEY.tool` and `tools KEY` work with no config flag.
// A canary stands for every secret a user would type or a client's file
// holds: it must never land in a file mcpwire writes, nor in its output.
// `tools TOOL` (item 4) shows one tool of the real server-everything.

import { runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { everythingServerPath } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const echoScript = path.join(root, 'examples', 'echo-server.mjs');
const CANARY = 'sk-live-CANARY-u3-5d1e77aa';
/** A secret that does not look like one (no prefix, short): only its name says what it is. */
const PLAIN_CANARY = 'plainCanaryU3';


interface Where {
  cwd: string;
  /** The user's file, for $MCPWIRE_USER_CONFIG. */
  user: string;
  env?: NodeJS.ProcessEnv;
}

function mcpwire(args: string[], where: Where): Promise<CliRun> {
  return runCli(args, { cwd: where.cwd, env: { MCPWIRE_USER_CONFIG: where.user, ...where.env } });
}

function folders(t: { after(fn: () => void): void }, label: string): Where {
  const dir = tempDir(t, label);
  const cwd = path.join(dir, 'project');
  mkdirSync(cwd);
  return { cwd, user: path.join(dir, 'config', 'mcpwire', 'mcpwire.json') };
}

function ok(run: CliRun, what: string): void {
  assert.equal(run.status, 0, `${what}: exit ${run.status}; stderr: ${run.stderr}`);
}

function noCanary(run: CliRun, ...files: string[]): void {
  for (const secret of [CANARY, PLAIN_CANARY]) {
    assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), `the secret was printed: ${run.stdout}${run.stderr}`);
    for (const file of files) if (existsSync(file)) assert.ok(!readFileSync(file, 'utf8').includes(secret), `the secret was written into ${file}`);
  }
}

describe('#18 item 12: saved servers', () => {
  test('U1: add NAME -- CMD writes ./mcpwire.json; call NAME.tool and tools NAME work with no config flag; list, remove', async (t) => {
    const where = folders(t, 'u3-add');
    const added = await mcpwire(['add', 'echo', '--', process.execPath, echoScript], where);
    ok(added, 'add');
    assert.match(added.stdout, /added echo in mcpwire\.json/);
    const file = path.join(where.cwd, 'mcpwire.json');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { echo: { command: process.execPath, args: [echoScript] } } });

    const [called, tools, list, listJson] = await Promise.all([
      mcpwire(['call', 'echo.echo', 'message=hi'], where),
      mcpwire(['tools', 'echo'], where),
      mcpwire(['list'], where),
      mcpwire(['list', '--json'], where),
    ]);
    ok(called, 'call echo.echo');
    assert.equal(called.stdout, 'Echo: hi\n');
    ok(tools, 'tools echo');
    assert.match(tools.stdout, /echo\(message: string\)/);
    ok(list, 'list');
    assert.match(list.stdout, /^echo\s+project\s+stdio /m);
    const rows = JSON.parse(listJson.stdout) as { name: string; scope: string; transport: string; file: string }[];
    assert.deepEqual(rows.map((r) => [r.name, r.scope, r.transport, r.file]), [['echo', 'project', 'stdio', file]]);

    const again = await mcpwire(['add', 'echo', '--', process.execPath, echoScript], where);
    assert.equal(again.status, 2, 'a second add of the same name is refused without --force');
    assert.match(again.stderr, /already has a server "echo"; --force replaces it/);

    const removed = await mcpwire(['remove', 'echo'], where);
    ok(removed, 'remove');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: {} });
    const unknown = await mcpwire(['remove', 'ecko'], where);
    assert.equal(unknown.status, 3, 'an unknown server is exit 3, as everywhere');
    assert.match(unknown.stderr, /UnknownToolError: no server named "ecko"/);
  });

  test('add keeps the rest of the file (other keys, their order, the indent) and leaves no temporary file', async (t) => {
    const where = folders(t, 'u3-keep');
    const file = path.join(where.cwd, 'mcpwire.json');
    const before = { $schema: 'https://example.com/schema.json', mcpServers: { first: { command: 'node', args: ['a.js'], autoApprove: ['x'] } }, other: { kept: [1, 2] } };
    writeFileSync(file, `${JSON.stringify(before, null, 4)}\n`);
    ok(await mcpwire(['add', 'web', '--url', 'https://api.example.com/mcp', '--transport', 'http', '--era', 'modern'], where), 'add --url');
    const text = readFileSync(file, 'utf8');
    const after = JSON.parse(text) as typeof before & { mcpServers: Record<string, unknown> };
    assert.deepEqual(Object.keys(after), ['$schema', 'mcpServers', 'other']);
    assert.deepEqual(Object.keys(after.mcpServers), ['first', 'web']);
    assert.deepEqual(after.mcpServers.first, before.mcpServers.first, 'a client\'s own keys are kept');
    assert.deepEqual(after.other, before.other);
    assert.deepEqual(after.mcpServers.web, { type: 'http', url: 'https://api.example.com/mcp', protocolEra: 'modern' });
    assert.match(text, /^\{\n {4}"\$schema"/, 'the file\'s indent is kept');
    assert.deepEqual(readdirSync(where.cwd), ['mcpwire.json'], 'no temporary file is left beside it');

    writeFileSync(file, JSON.stringify({ servers: { vs: { command: 'node' } } }));
    const vscode = await mcpwire(['add', 'x', '--', 'node', 'x.js'], where);
    assert.equal(vscode.status, 2, 'a file of another form is not given an mcpServers key that would hide its servers');
    assert.match(vscode.stderr, /keeps its servers under "servers"/);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { servers: { vs: { command: 'node' } } });

    writeFileSync(file, '{\n  // a comment\n  "mcpServers": {}\n}\n');
    const commented = await mcpwire(['add', 'x', '--', 'node', 'x.js'], where);
    assert.equal(commented.status, 2, 'a file with comments is not rewritten (they would be lost)');
    assert.match(readFileSync(file, 'utf8'), /a comment/);
  });

  test('--user writes the user file 0600 in a 0700 folder; a folder without mcpwire.json falls back to it, and -v says so', async (t) => {
    const where = folders(t, 'u3-user');
    ok(await mcpwire(['add', 'echo', '--user', '-e', 'LOG_LEVEL=debug', '--', process.execPath, echoScript], where), 'add --user');
    assert.equal(existsSync(path.join(where.cwd, 'mcpwire.json')), false, 'nothing in the project');
    if (process.platform !== 'win32') {
      assert.equal(statSync(where.user).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(where.user)).mode & 0o777, 0o700);
    }
    const [called, verbose, list] = await Promise.all([
      mcpwire(['call', 'echo.add', 'a=40', 'b=2'], where),
      mcpwire(['tools', 'echo', '-v'], where),
      mcpwire(['list'], where),
    ]);
    ok(called, 'call through the user file');
    assert.equal(called.stdout, '40 + 2 = 42\n');
    ok(verbose, 'tools -v');
    assert.ok(verbose.stderr.includes(`config: ${where.user} (the user's saved servers`), verbose.stderr.slice(0, 300));
    assert.match(list.stdout, /^echo\s+user\s+stdio .*\(env LOG_LEVEL\)$/m);
    ok(await mcpwire(['remove', 'echo', '--user'], where), 'remove --user');
    assert.deepEqual(JSON.parse(readFileSync(where.user, 'utf8')), { mcpServers: {} });
  });

  test('the user\'s saved servers join a folder\'s mcpwire.json (its own win a shared name); a broken user file costs a note, not the command', async (t) => {
    const where = folders(t, 'u3-merge');
    ok(await mcpwire(['add', 'mine', '--', process.execPath, echoScript], where), 'add to the project');
    ok(await mcpwire(['add', 'theirs', '--user', '--', process.execPath, echoScript], where), 'add to the user file');
    // The same name in both: the folder's entry (a command that cannot start) must not be shadowed by the user's working one.
    ok(await mcpwire(['add', 'both', '--user', '--', process.execPath, echoScript], where), 'add both --user');
    ok(await mcpwire(['add', 'both', '--', 'mcpwire-no-such-program-u3'], where), 'add both');
    const [theirs, verbose, both] = await Promise.all([
      mcpwire(['call', 'theirs.add', 'a=1', 'b=2'], where),
      mcpwire(['tools', 'mine', '-v'], where),
      mcpwire(['call', 'both.echo', 'message=x'], where),
    ]);
    ok(theirs, 'a user server from a folder with its own file');
    assert.equal(theirs.stdout, '1 + 2 = 3\n');
    assert.ok(verbose.stderr.includes(`, and theirs from the user's saved servers in ${where.user}`), verbose.stderr.slice(0, 400));
    assert.equal(both.status, 4, 'the folder\'s "both" is the one started');
    writeFileSync(where.user, '{"mcpServers": {"broken": {"command": 3}}}');
    const still = await mcpwire(['call', 'mine.echo', 'message=still'], where);
    ok(still, 'the folder\'s servers with a broken user file');
    assert.equal(still.stdout, 'Echo: still\n');
    assert.match(still.stderr, /^note: the user's saved servers were not read: /m);
  });

  describe('secrets are written as ${VAR} references, never as values (canary)', () => {
    const refused: [string, string[]][] = [
      ['--header "Authorization: Bearer <secret>"', ['add', 'web', '--url', 'https://api.example.com/mcp', '--header', `Authorization: Bearer ${CANARY}`]],
      ['--header X-Api-Key=<plain secret>', ['add', 'web', '--url', 'https://api.example.com/mcp', '--header', `X-Api-Key=${PLAIN_CANARY}`]],
      ['--header X-Custom: <token-shaped>', ['add', 'web', '--url', 'https://api.example.com/mcp', '--header', `X-Custom: ${CANARY}`]],
      ['a URL with ?api_key=<secret>', ['add', 'web', '--url', `https://api.example.com/mcp?api_key=${PLAIN_CANARY}`]],
      ['a URL with user:<secret>@', ['add', 'web', '--url', `https://user:${PLAIN_CANARY}@api.example.com/mcp`]],
      ['a URL with a key in its path', ['add', 'web', '--url', `https://api.example.com/mcp/${CANARY}/sse`]],
      ['-e API_KEY=<plain secret>', ['add', 'x', '-e', `API_KEY=${PLAIN_CANARY}`, '--', 'node', 'x.js']],
      ['-e OPTIONS=<token-shaped>', ['add', 'x', '-e', `OPTIONS=${CANARY}`, '--', 'node', 'x.js']],
      ['-- server --api-key <secret>', ['add', 'x', '--', 'node', 'x.js', '--api-key', PLAIN_CANARY]],
      ['-- server --token=<secret>', ['add', 'x', '--', 'node', 'x.js', `--token=${PLAIN_CANARY}`]],
      ['-- server <token-shaped word>', ['add', 'x', '--', 'npx', 'server', CANARY]],
    ];
    for (const [what, args] of refused) {
      test(`T4: add with ${what} is refused (exit 2), says how to write a reference, and neither writes nor prints the value`, async (t) => {
        const where = folders(t, 'u3-refuse');
        for (const user of [false, true]) {
          const run = await mcpwire([...args, ...(user ? ['--user'] : [])], where);
          assert.equal(run.status, 2, run.stderr);
          assert.match(run.stderr, /never writes a secret|carries credentials/);
          noCanary(run, path.join(where.cwd, 'mcpwire.json'), where.user);
        }
        assert.equal(existsSync(path.join(where.cwd, 'mcpwire.json')), false);
        assert.equal(existsSync(where.user), false);
      });
    }

    test('what is not a secret is written as given: paths, package names, versions, plain settings', async (t) => {
      const where = folders(t, 'u3-plain');
      const argv = ['npx', '-y', '@modelcontextprotocol/server-filesystem@2025.11.25', '/home/someone/projects/a-rather-long-folder-name-2025', 'mcp-server-with-a-long-name-v2-2025-11-25', '--log-level', 'debug'];
      ok(await mcpwire(['add', 'fs', '-e', 'LOG_LEVEL=debug', '-e', 'NODE_OPTIONS=--max-old-space-size=4096', '--', ...argv], where), 'add');
      const saved = JSON.parse(readFileSync(path.join(where.cwd, 'mcpwire.json'), 'utf8')).mcpServers.fs;
      assert.deepEqual(saved, { command: 'npx', args: argv.slice(1), env: { LOG_LEVEL: 'debug', NODE_OPTIONS: '--max-old-space-size=4096' } });
    });

    test('T4: references are accepted (--bearer-env, --header-env, -e NAME, ${VAR} in a value); the secret reaches the server from the environment only', async (t) => {
      const where = folders(t, 'u3-refs');
      ok(await mcpwire(['add', 'web', '--url', 'https://api.example.com/mcp', '--bearer-env', 'WEB_TOKEN', '--header-env', 'X-Api-Key=WEB_KEY', '--header', 'X-Tenant: acme'], where), 'add --url with references');
      ok(await mcpwire(['add', 'every', '-e', 'API_KEY', '-e', 'OTHER_SECRET=${SOURCE_SECRET}', '--', process.execPath, everythingServerPath(), 'stdio'], where), 'add -e NAME');
      const file = path.join(where.cwd, 'mcpwire.json');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).mcpServers, {
        web: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${WEB_TOKEN}', 'X-Api-Key': '${WEB_KEY}', 'X-Tenant': 'acme' } },
        every: { command: process.execPath, args: [everythingServerPath(), 'stdio'], env: { API_KEY: '${API_KEY}', OTHER_SECRET: '${SOURCE_SECRET}' } },
      });
      // server-everything's get-env returns its environment: the value arrives, and the file still holds only the reference.
      const env = await mcpwire(['call', 'every.get-env'], { ...where, env: { API_KEY: CANARY, SOURCE_SECRET: PLAIN_CANARY } });
      ok(env, 'call every.get-env');
      assert.ok(env.stdout.includes(CANARY) && env.stdout.includes(PLAIN_CANARY), 'the server got the values from the environment');
      const list = await mcpwire(['list', '--json'], { ...where, env: { API_KEY: CANARY, SOURCE_SECRET: PLAIN_CANARY } });
      noCanary(list, file);
    });
  });

  test('import --from claude|cursor|vscode|windsurf|codex copies servers, with each literal secret replaced by a ${VAR} reference it names', async (t) => {
    const where = folders(t, 'u3-import');
    const home = path.join(path.dirname(where.cwd), 'home');
    mkdirSync(path.join(home, '.codeium', 'windsurf'), { recursive: true });
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    mkdirSync(path.join(where.cwd, '.cursor'));
    mkdirSync(path.join(where.cwd, '.vscode'));
    writeFileSync(
      path.join(home, '.claude.json'),
      JSON.stringify({
        numStartups: 3,
        mcpServers: {
          echo: { command: process.execPath, args: [echoScript], env: { GITHUB_TOKEN: PLAIN_CANARY, LOG_LEVEL: 'info' } },
          remote: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: `Bearer ${CANARY}`, 'X-Tenant': 'acme' } },
          flags: { command: 'npx', args: ['-y', 'some-server', '--api-key', PLAIN_CANARY, `--secret=${PLAIN_CANARY}`] },
        },
      }),
    );
    writeFileSync(path.join(where.cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cursorweb: { url: `https://c.example.com/mcp?token=${PLAIN_CANARY}&v=1` } } }));
    writeFileSync(path.join(where.cwd, '.vscode', 'mcp.json'), JSON.stringify({ servers: { vs: { type: 'stdio', command: 'node', args: ['v.js'], env: { API_KEY: '${input:key}' } } } }));
    writeFileSync(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), JSON.stringify({ mcpServers: { surf: { serverUrl: 'https://w.example.com/sse' }, zap: { serverUrl: `https://z.example.com/mcp/${CANARY}/sse` } } }));
    writeFileSync(path.join(home, '.codex', 'config.toml'), `[mcp_servers.cx]\nurl = "https://x.example.com/mcp"\nbearer_token_env_var = "CX_TOKEN"\n[mcp_servers.cx.http_headers]\nX-Key = "${PLAIN_CANARY}"\n`);
    const at = { ...where, env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), CODEX_HOME: path.join(home, '.codex') } };

    const claude = await mcpwire(['import', '--from', 'claude'], at);
    ok(claude, 'import --from claude');
    assert.match(claude.stdout, /3 servers from .*\.claude\.json into mcpwire\.json/);
    assert.match(claude.stdout, /set these variables where mcpwire runs: GITHUB_TOKEN, REMOTE_TOKEN, FLAGS_API_KEY, FLAGS_SECRET/);
    const file = path.join(where.cwd, 'mcpwire.json');
    noCanary(claude, file);
    const servers = JSON.parse(readFileSync(file, 'utf8')).mcpServers;
    assert.deepEqual(servers.echo, { command: process.execPath, args: [echoScript], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LOG_LEVEL: 'info' } });
    assert.deepEqual(servers.remote, { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${REMOTE_TOKEN}', 'X-Tenant': 'acme' } });
    assert.deepEqual(servers.flags.args, ['-y', 'some-server', '--api-key', '${FLAGS_API_KEY}', '--secret=${FLAGS_SECRET}']);

    for (const from of ['cursor', 'vscode', 'windsurf', 'codex']) {
      const run = await mcpwire(['import', '--from', from], at);
      ok(run, `import --from ${from}`);
      noCanary(run, file);
    }
    const all = JSON.parse(readFileSync(file, 'utf8')).mcpServers;
    assert.deepEqual(Object.keys(all), ['echo', 'remote', 'flags', 'cursorweb', 'vs', 'surf', 'zap', 'cx']);
    assert.deepEqual(all.zap, { url: 'https://z.example.com/mcp/${ZAP_KEY}/sse' }, 'a key in the path becomes a reference');
    assert.equal(all.cursorweb.url, 'https://c.example.com/mcp?token=${CURSORWEB_TOKEN}&v=1');
    assert.deepEqual(all.vs.env, { API_KEY: '${input:key}' }, 'a reference is copied as it is');
    assert.deepEqual(all.surf, { url: 'https://w.example.com/sse' });
    assert.deepEqual(all.cx, { type: 'http', url: 'https://x.example.com/mcp', headers: { 'X-Key': '${CX_X_KEY}', Authorization: 'Bearer ${CX_TOKEN}' } });

    // A literal secret written into the file by hand is masked in a listing.
    writeFileSync(file, JSON.stringify({ mcpServers: { ...all, hand: { url: `https://h.example.com/mcp/${CANARY}/sse?key=${PLAIN_CANARY}`, env: { API_KEY: PLAIN_CANARY } } } }, null, 2));
    const [listed, listedJson] = await Promise.all([mcpwire(['list'], at), mcpwire(['list', '--json'], at)]);
    ok(listed, 'list');
    assert.match(listed.stdout, /^hand\s+project\s+http https:\/\/h\.example\.com\/mcp\/\*\*\*\/sse\?key=\*\*\*  \(env API_KEY\)$/m);
    noCanary(listed);
    noCanary(listedJson);
    writeFileSync(file, JSON.stringify({ mcpServers: all }, null, 2));

    const again = await mcpwire(['import', '--from', 'claude'], at);
    ok(again, 'a second import');
    assert.match(again.stderr, /skipped echo: mcpwire\.json already has it/);
    // The imported server runs, its variable from the environment.
    const called = await mcpwire(['call', 'echo.echo', 'message=imported'], { ...at, env: { ...at.env, GITHUB_TOKEN: 'x', REMOTE_TOKEN: 'x', FLAGS_API_KEY: 'x', FLAGS_SECRET: 'x', CURSORWEB_TOKEN: 'x', CX_X_KEY: 'x', CX_TOKEN: 'x', ZAP_KEY: 'x' } });
    ok(called, 'call an imported server');
    assert.equal(called.stdout, 'Echo: imported\n');
  });
});

describe('#18 item 4: tools NAME', () => {
  const EVERYTHING = ['--', process.execPath, everythingServerPath(), 'stdio'];
  const noFiles = (t: { after(fn: () => void): void }) => folders(t, 'u3-tools');

  test('U1: tools TOOL shows its description, each parameter (type, required, default, allowed values, description) and a call line that works', async (t) => {
    const where = { ...noFiles(t), cwd: root };
    const [sum, long, annotated] = await Promise.all([
      mcpwire(['tools', 'get-sum', ...EVERYTHING], where),
      mcpwire(['tools', 'trigger-long-running-operation', ...EVERYTHING], where),
      mcpwire(['tools', 'mcp.server-everything.get-annotated-message', ...EVERYTHING], where),
    ]);
    ok(sum, 'tools get-sum');
    assert.match(sum.stdout, /^mcp\.server-everything\.get-sum/);
    assert.match(sum.stdout, /Returns the sum of two numbers/);
    assert.match(sum.stdout, /^ {2}a {2}\(number, required\)\n {6}First number$/m);
    assert.doesNotMatch(sum.stdout, /echo\(message/, 'one tool, not the list');
    const example = /^ {2}(mcpwire call .*)$/m.exec(sum.stdout)?.[1];
    assert.equal(example, `mcpwire call get-sum a=1 b=1 -- ${process.execPath} ${everythingServerPath()} stdio`);
    ok(long, 'tools trigger-long-running-operation');
    assert.match(long.stdout, /duration {2}\(number, optional, default 10\)/);
    ok(annotated, 'tools mcp.<key>.<tool>');
    assert.match(annotated.stdout, /messageType {2}\("error" \| "success" \| "debug", required\)/);
    assert.match(annotated.stdout, /mcpwire call get-annotated-message messageType=error /);
    // The example line runs as printed.
    const words = example!.split(' ').slice(1);
    const run = await mcpwire(words, where);
    ok(run, 'the example call');
    assert.match(run.stdout, /The sum of 1 and 1 is 2/);
  });

  test('U1: tools TOOL --json is the tool\'s definition; an unknown NAME is the UnknownToolError with did-you-mean (exit 3)', async (t) => {
    const where = { ...noFiles(t), cwd: root };
    const [json, unknown] = await Promise.all([mcpwire(['tools', 'get-sum', '--json', ...EVERYTHING], where), mcpwire(['tools', 'get-summ', ...EVERYTHING], where)]);
    ok(json, 'tools get-sum --json');
    const definition = JSON.parse(json.stdout) as { name: string; mcp_tool_name: string; parameters: { required: string[] } };
    assert.equal(definition.name, 'mcp.server-everything.get-sum');
    assert.deepEqual(definition.parameters.required, ['a', 'b']);
    assert.equal(unknown.status, 3, unknown.stderr);
    assert.match(unknown.stderr, /UnknownToolError: no tool named "get-summ"; did you mean get-sum\?/);
    assert.equal(unknown.stdout, '');
  });

  test('U1: tools KEY lists that server\'s tools only; with two saved servers the example call is KEY.tool', async (t) => {
    const where = noFiles(t);
    ok(await mcpwire(['add', 'echo', '--', process.execPath, echoScript], where), 'add echo');
    ok(await mcpwire(['add', 'every', ...EVERYTHING], where), 'add every');
    const [one, view, all] = await Promise.all([mcpwire(['tools', 'echo'], where), mcpwire(['tools', 'every.get-sum'], where), mcpwire(['tools'], where)]);
    ok(one, 'tools echo');
    assert.match(one.stdout, /^echo \(2 tools/m);
    assert.doesNotMatch(one.stdout, /get-sum|^every /m, 'the other server is not listed');
    ok(all, 'tools');
    assert.match(all.stdout, /get-sum/);
    ok(view, 'tools every.get-sum');
    assert.match(view.stdout, /^ {2}mcpwire call every\.get-sum a=1 b=1$/m);
  });
});
