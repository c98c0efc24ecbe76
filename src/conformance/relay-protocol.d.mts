// Types of relay-protocol.mjs (plain JavaScript so the relay child needs no loader).

/** Environment variable that carries the control socket's path to the relay. */
export declare const RELAY_SOCKET_ENV: 'MCPWIRE_RELAY_SOCKET';
/** 'w': write the payload to stdout, byte for byte. */
export declare const FRAME_WRITE: 0x77;
/** 'x': close stdout and exit (the server "exits"). */
export declare const FRAME_CLOSE: 0x78;
export declare function encodeFrame(type: number, payload?: Uint8Array): Buffer;
/** Decodes a stream of frames; `onFrame` is called once per complete frame, in order. */
export declare function createFrameDecoder(onFrame: (type: number, payload: Buffer) => void): (chunk: Buffer) => void;
