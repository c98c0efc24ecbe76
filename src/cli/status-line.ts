// A status line on stderr for waits a person would otherwise sit through in
// silence (a server starting, many servers being discovered): shown only on
// a terminal, only after a second, updated with the elapsed time, and erased
// when the wait ends so that it never mixes with what the command prints.

import { doing } from './process.js';

/** A wait shorter than this shows nothing: most servers start well within it. */
const SHOW_AFTER_MS = 1_000;
const REFRESH_MS = 100;

/** Ends a status line (erasing it if it was shown); `set` changes what it says from the next redraw on. */
export type StatusLine = (() => void) & { set(what: string): void };

/** Starts a status line for `what`; the returned function ends it (erasing it if it was shown). */
export function statusLine(what: string): StatusLine {
  doing(what);
  if (!process.stderr.isTTY) return Object.assign(() => doing(undefined), { set: (next: string) => doing(next) });
  const began = Date.now();
  let shown = false;
  const draw = () => {
    shown = true;
    process.stderr.write(`\r\x1b[2K${what} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  };
  let interval: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    interval = setInterval(draw, REFRESH_MS);
    interval.unref();
  }, SHOW_AFTER_MS);
  delay.unref();
  const end = () => {
    doing(undefined);
    clearTimeout(delay);
    if (interval) clearInterval(interval);
    if (shown) process.stderr.write('\r\x1b[2K');
  };
  return Object.assign(end, {
    set: (next: string) => {
      what = next;
      doing(next);
    },
  });
}
