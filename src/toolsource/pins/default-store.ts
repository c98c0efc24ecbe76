// The pin store a tool source uses when the host gives none: the config
// file's (see pinFileFor in store.ts), or, for a config that is no file (one
// built in code, a server given on a command line), one in memory.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { FilePinStore, MemoryPinStore, pinFileFor, type PinStore } from './store.js';

export function defaultPinStore(configFile: string): PinStore {
  if (process.env.MCPWIRE_PINS) return new FilePinStore(process.env.MCPWIRE_PINS);
  return path.isAbsolute(configFile) && existsSync(configFile) ? new FilePinStore(pinFileFor(configFile)) : new MemoryPinStore();
}
