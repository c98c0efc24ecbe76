// The CLI's "did you mean": the one implementation is the library's (util/suggest.ts), shared with the config readers.

export { editDistance, nearest } from '../util/suggest.js';
