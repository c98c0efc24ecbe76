// Where the borrowed Node binaries are, for tests that must run something on
// a Node other than the one running them. Each is absent unless
// `npm run node-versions` installed this folder (linux-x64 only): callers
// skip, saying so, rather than fail.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The majors this folder can provide (package.json aliases node22, node24). */
export const MAJORS = [22, 24];

/**
 * The path of a Node binary of this major: the running Node when it is that
 * major, else the borrowed one, else undefined.
 * @param {number} major
 * @returns {string | undefined}
 */
export function nodeBinary(major) {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const file = fileURLToPath(new URL(`./node_modules/node${major}/bin/node`, import.meta.url));
  return existsSync(file) ? file : undefined;
}

/** Why a binary is missing, for a test's skip message. */
export function missingReason(major) {
  return `no Node ${major} here: run \`npm run node-versions\` (linux-x64 only) to borrow one`;
}
