// Node's heavier built-in modules, fetched when a rarely taken path first
// needs them instead of imported at the top of a module. Each costs
// milliseconds to load (crypto ~2, http ~3, tls ~4 here), and a host that
// imports mcpwire for a stdio client needs none of them (#20 item 2, X4:
// import-cold and e2e-cold). process.getBuiltinModule is synchronous, so the
// functions calling these stay synchronous; Node (≥ 20.16, 22.3), Bun and Deno
// all have it.

export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
export const nodeHttp = (): typeof import('node:http') => process.getBuiltinModule('node:http');
export const nodeChildProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');
export const nodeNet = (): typeof import('node:net') => process.getBuiltinModule('node:net');
export const nodeTls = (): typeof import('node:tls') => process.getBuiltinModule('node:tls');
