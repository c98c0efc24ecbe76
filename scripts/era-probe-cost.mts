// What protocolEra 'auto' costs against legacy servers (#17 item 1): the
// median connect() time with 'auto' (a fresh verdict cache, so every connect
// probes) against 'legacy', over several alternating runs, per server. Then
// against the SDK v2 server (spec-tests/fixtures/v2-server.mjs over stdio,
// modern-only and dual-era): the default (no era configured: legacy, which
// follows a modern-only server's -32022 refusal to 2026-07-28) and 'auto'
// against 'modern' (no probe, no refusal: the least a connect can cost).
// Usage: node --import tsx scripts/era-probe-cost.mts [runs=7]
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type ServerParams } from '../src/client/connect.js';
import { createMemoryEraCache } from '../src/client/era-cache.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const fx = (name: string) => path.join(root, 'spec-tests/fixtures', name);
const mod = (name: string) => path.join(root, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const node = (...args: string[]): ServerParams => ({ transport: 'stdio', command: process.execPath, args, cwd: root });
const dir = mkdtempSync(path.join(os.tmpdir(), 'era-cost-'));

const servers: [string, ServerParams][] = [
  ['server-everything', node(mod('server-everything'), 'stdio')],
  ['server-filesystem', node(mod('server-filesystem'), dir)],
  ['server-memory', { ...node(mod('server-memory')), env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } }],
  ['fault-server.mjs', node(fx('fault-server.mjs'))],
  ['scripted-server.mjs', node(fx('scripted-server.mjs'))],
  ['toolsource-server.mjs', node(fx('toolsource-server.mjs'))],
  ['tiny-server.pl', { transport: 'stdio', command: 'perl', args: [fx('tiny-server.pl')], cwd: root }],
  ['E1-exits-before-initialize.mjs', node(fx('E1-exits-before-initialize.mjs'))],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** `undefined`: no era configured, the default (legacy, following a modern-only server's -32022 to 2026-07-28). */
async function once(params: ServerParams, protocolEra: 'auto' | 'legacy' | 'modern' | undefined): Promise<number> {
  const t0 = performance.now();
  const client = await connect(protocolEra === undefined ? params : { ...params, protocolEra }, { eraCache: createMemoryEraCache() });
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

console.log(`runs per mode: ${runs}; probe timeout: the default (1 000 ms)`);
console.log('server | legacy median ms | auto median ms | auto − legacy ms');
for (const [name, params] of servers) {
  const times = { legacy: [] as number[], auto: [] as number[] };
  await once(params, 'legacy'); // warm the file cache
  for (let i = 0; i < runs; i++) {
    times.legacy.push(await once(params, 'legacy'));
    times.auto.push(await once(params, 'auto'));
  }
  const l = median(times.legacy), a = median(times.auto);
  console.log(`${name} | ${l.toFixed(1)} | ${a.toFixed(1)} | ${(a - l).toFixed(1)}`);
}

console.log('');
console.log('SDK v2 server (stdio) | modern median ms | default median ms | auto median ms | default − modern ms | auto − modern ms');
for (const era of ['modern', 'dual']) {
  const params = node(fx('v2-server.mjs'), '--transport', 'stdio', '--era', era);
  const times = { modern: [] as number[], default: [] as number[], auto: [] as number[] };
  await once(params, 'modern'); // warm the file cache
  for (let i = 0; i < runs; i++) {
    times.modern.push(await once(params, 'modern'));
    times.default.push(await once(params, undefined));
    times.auto.push(await once(params, 'auto'));
  }
  const [m, d, a] = [median(times.modern), median(times.default), median(times.auto)];
  console.log(`v2-server.mjs --era ${era} | ${m.toFixed(1)} | ${d.toFixed(1)} | ${a.toFixed(1)} | ${(d - m).toFixed(1)} | ${(a - m).toFixed(1)}`);
}
