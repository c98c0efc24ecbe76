// Preloaded into the servers the corpus is recorded from (node --import):
// Math.random becomes a fixed-seed generator, so what a server picks "at
// random" (server-everything's simulated log levels) is the same in every
// recording. mulberry32: small, and good enough for picking list items.
let state = 0x6d637077; // "mcpw"
Math.random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
