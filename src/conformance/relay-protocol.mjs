// The control channel between the runner and the relay child, shared by
// both ends. Runner → relay: length-prefixed frames, so payload bytes go
// through exactly as given (raw lines may hold anything, even half a UTF-8
// character). Relay → runner: the client's stdin bytes, unframed: the
// runner splits lines itself, so a last line without a line break is seen too.
//
// Plain JavaScript (typed by relay-protocol.d.mts) so that the relay child
// starts with bare node in ~50 ms instead of ~350 ms under the tsx loader:
// its start-up counts against the client's initialize timeout.

/** Environment variable that carries the control socket's path to the relay. */
export const RELAY_SOCKET_ENV = 'MCPWIRE_RELAY_SOCKET';

export const FRAME_WRITE = 0x77; // 'w': write the payload to stdout, byte for byte
export const FRAME_CLOSE = 0x78; // 'x': close stdout and exit (the server "exits")

const HEADER_BYTES = 5; // 1 type byte + 4-byte big-endian payload length

export function encodeFrame(type, payload = new Uint8Array(0)) {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame[0] = type;
  frame.writeUInt32BE(payload.length, 1);
  frame.set(payload, HEADER_BYTES);
  return frame;
}

/** Decodes a stream of frames; `onFrame` is called once per complete frame, in order. */
export function createFrameDecoder(onFrame) {
  // Chunks are kept apart until a whole frame is there, and joined once: a
  // 1 MB frame arriving in 64 KiB reads is not copied sixteen times.
  let chunks = [];
  let held = 0;
  let needed = HEADER_BYTES;
  return (chunk) => {
    chunks.push(chunk);
    held += chunk.length;
    while (held >= needed) {
      let buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, held);
      if (needed === HEADER_BYTES) needed = HEADER_BYTES + buffer.readUInt32BE(1);
      if (buffer.length < needed) {
        chunks = [buffer];
        break;
      }
      onFrame(buffer[0], buffer.subarray(HEADER_BYTES, needed));
      buffer = buffer.subarray(needed);
      chunks = buffer.length ? [buffer] : [];
      held = buffer.length;
      needed = HEADER_BYTES;
    }
  };
}
