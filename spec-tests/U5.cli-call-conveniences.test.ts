// #18 item 14: call's conveniences, through the compiled CLI (bin/mcpwire.js,
// built by `npm test` first) against real stdio servers: server-everything
// (a PNG from get-tiny-image, a blob from get-resource-reference) and a
// fixture that answers every content kind and echoes its typed arguments.
// `key=@FILE` reads a value from a file, typed by the schema (`@@` for a
// literal @); `--save DIR` decodes images, audio and blobs into files and
// says where; `--output FILE` writes what would be printed to FILE.

import { runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { everythingServerPath } from './helpers/interop.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const KINDS = ['--', process.execPath, path.join(root, 'spec-tests', 'fixtures', 'content-kinds-server.mjs')];
const EVERYTHING = ['--', process.execPath, everythingServerPath(), 'stdio'];
const CANARY = 'sk-live-CANARY-u5-91b2e4';


function mcpwire(args: string[], cwd = root): Promise<CliRun> {
  return runCli(args, { cwd, timeoutMs: 90_000 });
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-u5-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The arguments the `typed` fixture tool received, from `call --json`. */
function received(run: CliRun): Record<string, unknown> {
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { result: { structuredContent: { received: Record<string, unknown> } } }).result.structuredContent.received;
}

describe('#18 item 14: key=@FILE', () => {
  test('U1: a string parameter takes the file\'s text exactly; number, integer, boolean, object and array parameters read the file as JSON; an untyped one JSON when it parses', async (t) => {
    const dir = tempDir(t);
    const files = {
      text: 'line one\n{"not": "parsed"}\n',
      n: '2.5\n',
      whole: ' 42 ',
      flag: 'true\n',
      obj: '{"a": [1, 2], "b": {"c": null}}',
      list: '["x", "y"]\n',
      loose: '{"k": 1}',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, `${name}.in`), text);
    const run = await mcpwire(['call', 'typed', ...Object.keys(files).map((name) => `${name}=@${name}.in`), '--json', ...KINDS], dir);
    assert.deepEqual(received(run), { text: files.text, n: 2.5, whole: 42, flag: true, obj: { a: [1, 2], b: { c: null } }, list: ['x', 'y'], loose: { k: 1 } });
    // key:@FILE too, and an untyped value that is not JSON is the text.
    writeFileSync(path.join(dir, 'plain.in'), 'just words');
    assert.deepEqual(received(await mcpwire(['call', 'typed', 'loose:@plain.in', '--json', ...KINDS], dir)), { loose: 'just words' });
  });

  test('U1: k=@@text is the literal "@text", for any parameter type; a value with @ elsewhere is never a file', async () => {
    const run = await mcpwire(['call', 'typed', 'text=@@handle', 'loose=@@{"a":1}', 'list=["@x"]', '--json', ...KINDS]);
    assert.deepEqual(received(run), { text: '@handle', loose: '@{"a":1}', list: ['@x'] });
  });

  test('U1: a file that is not there is a usage error (exit 2) that names it and the @@ escape, and the server is never called', async (t) => {
    const dir = tempDir(t);
    const run = await mcpwire(['call', 'typed', 'text=@no-such.txt', ...KINDS], dir);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /text=@no-such\.txt: no such file/);
    assert.match(run.stderr, /text=@@no-such\.txt/);
    assert.equal(run.stdout, '');
  });

  test('T4/U1: a file whose JSON does not fit its parameter is a usage error that names the file and never quotes its contents', async (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, 'token'), `${CANARY}\n`);
    for (const word of ['n=@token', 'flag=@token', 'obj=@token', 'list=@token', 'whole=@token']) {
      const run = await mcpwire(['call', 'typed', word, ...KINDS], dir);
      assert.equal(run.status, 2, `${word}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`${word}: \\w+ takes`), word);
      assert.ok(!run.stderr.includes(CANARY) && !run.stdout.includes(CANARY), `${word} printed the file: ${run.stderr}`);
    }
  });
});

describe('#18 item 14: --save DIR', () => {
  test('U1: server-everything\'s image is decoded into DIR as a .png, its name printed beside the description, the text still printed', async (t) => {
    const dir = path.join(tempDir(t), 'made-for-it');
    const run = await mcpwire(['call', 'get-tiny-image', '--save', dir, ...EVERYTHING]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Here's the image you requested:$/m);
    const file = path.join(dir, 'get-tiny-image-2.png');
    assert.match(run.stdout, new RegExp(`^\\[image: image/png, \\d+ bytes\\] saved as ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    const bytes = readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature: base64 was decoded');
    assert.equal(Number(/image\/png, (\d+) bytes/.exec(run.stdout)![1]), bytes.length, 'the described size is the file\'s');
  });

  test('U1: server-everything\'s blob resource is saved with the extension of its MIME type, and its description now says type and size', async (t) => {
    const dir = tempDir(t);
    const run = await mcpwire(['call', 'get-resource-reference', 'resourceType=Blob', 'resourceId=2', '--save', dir, ...EVERYTHING]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^\[binary resource demo:\/\/resource\/dynamic\/blob\/2: text\/plain, \d+ bytes\] saved as .*\.txt$/m);
    const [file] = readdirSync(dir);
    assert.match(readFileSync(path.join(dir, file!), 'utf8'), /^Resource 2: This is a base64 blob/);
  });

  test('U1: every binary kind (image, audio, a named and an unnamed blob) is saved byte for byte; text, links and text resources are printed, not saved; an existing file is never replaced', async (t) => {
    const dir = tempDir(t);
    const first = await mcpwire(['call', 'every-kind', '--save', dir, ...KINDS]);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['every-kind-2.png', 'every-kind-3.wav', 'every-kind-7.bin', 'q3.pdf']);
    // The bytes the server sent, from its JSON result: each file is their base64 decoded.
    const sent = (JSON.parse((await mcpwire(['call', 'every-kind', '--json', ...KINDS])).stdout) as { result: { content: { data?: string; resource?: { blob?: string } }[] } }).result.content;
    const bytesOf = (index: number) => Buffer.from(sent[index]!.data ?? sent[index]!.resource!.blob!, 'base64');
    for (const [file, index] of [['every-kind-2.png', 1], ['every-kind-3.wav', 2], ['q3.pdf', 5], ['every-kind-7.bin', 6]] as const) {
      assert.deepEqual(readFileSync(path.join(dir, file)), bytesOf(index), file);
    }
    assert.equal(readFileSync(path.join(dir, 'every-kind-2.png')).subarray(1, 4).toString('latin1'), 'PNG');
    assert.equal(readFileSync(path.join(dir, 'q3.pdf')).subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(first.stdout, /^every kind follows$/m);
    assert.match(first.stdout, /^\[resource link: q3 notes <file:\/\/\/reports\/q3\.md> text\/markdown\]$/m);
    assert.match(first.stdout, /^remember the milk$/m);
    assert.equal(first.stdout.match(/ saved as /g)?.length, 4);
    const second = await mcpwire(['call', 'every-kind', '--save', dir, ...KINDS]);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /saved as .*q3-2\.pdf$/m);
    assert.equal(readdirSync(dir).length, 8);
    assert.deepEqual(readFileSync(path.join(dir, 'q3.pdf')), bytesOf(5), 'q3.pdf is untouched');
  });

  test('U1: with --json the result is unchanged and "saved" lists each block\'s file by its index', async (t) => {
    const dir = tempDir(t);
    const run = await mcpwire(['call', 'every-kind', '--save', dir, '--json', ...KINDS]);
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as { result: { content: unknown[] }; saved: { index: number; file: string }[] };
    assert.equal(printed.result.content.length, 7);
    assert.deepEqual(printed.saved.map((s) => [s.index, path.basename(s.file)]), [[1, 'every-kind-2.png'], [2, 'every-kind-3.wav'], [5, 'q3.pdf'], [6, 'every-kind-7.bin']]);
    for (const { file } of printed.saved) assert.ok(existsSync(file), file);
  });

  test('U1: --save and --output belong to call: on another command they are a usage error (exit 2)', async () => {
    for (const flag of ['--save', '--output']) {
      const run = await mcpwire(['tools', flag, 'x', ...KINDS]);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`${flag} is an option of mcpwire call`));
    }
  });
});

describe('#18 item 14: --output FILE', () => {
  test('U1: the result as it would be printed goes to FILE, nothing to stdout; with --json, the JSON', async (t) => {
    const dir = tempDir(t);
    const text = path.join(dir, 'result.txt');
    const run = await mcpwire(['call', 'echo', 'message=to a file', '--output', text, ...EVERYTHING]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(readFileSync(text, 'utf8'), 'Echo: to a file\n');
    const json = path.join(dir, 'result.json');
    const asJson = await mcpwire(['call', 'echo', 'message=as json', '-o', json, '--json', ...EVERYTHING]);
    assert.equal(asJson.status, 0, asJson.stderr);
    assert.equal(asJson.stdout, '');
    assert.deepEqual((JSON.parse(readFileSync(json, 'utf8')) as { result: { content: unknown } }).result.content, [{ type: 'text', text: 'Echo: as json' }]);
  });

  test('U1: a FILE that cannot be written is a usage error naming it (exit 2)', async (t) => {
    const dir = tempDir(t);
    const run = await mcpwire(['call', 'echo', 'message=x', '--output', path.join(dir, 'no', 'such', 'dir', 'out.txt'), ...EVERYTHING]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /--output .*out\.txt: cannot write it \(ENOENT\)/);
  });
});
