// The pinning API a host imports (SPEC G2): fingerprints, the stores and the drift report.
export { canonicalJson, fingerprintTool } from './canonical.js';
export { FilePinStore, MemoryPinStore, pinFileFor, type PinStore, type PinnedServer } from './store.js';
export type { PinPolicy, ToolDrift } from './review.js';
