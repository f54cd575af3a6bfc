/**
 * The code that runs FIRST inside the strategy's `node:vm` context, as the context's own source
 * (`contextBootstrap.toString()` is evaluated there): it must not reference anything outside itself.
 *
 * It gives Pyodide the few globals its "shell" runtime needs (read, readbuffer, TextEncoder/Decoder,
 * a seeded getRandomValues, performance.now, console) and nothing of Node. Every bridge to the outer
 * realm is a host function captured in a closure, never stored on a global, and passes only primitives
 * or arrays created in this realm, so no outer-realm object (whose `.constructor.constructor` would be
 * the outer `Function`) is ever reachable from strategy code.
 */
export interface HostBridge {
  /** Size in bytes of one of the fixed Pyodide files, or -1 when the name is not one of them. */
  fileSize(name: string): number;
  /** Copies that file into a buffer created inside the context. */
  fillFile(name: string, into: Uint8Array): void;
  /** UTF-8 text of that file, or a number when it is not one of them. */
  readText(name: string): string | number;
  /** Decodes bytes; a number when they are not valid for the encoding. */
  decode(encoding: string, fatal: boolean, ignoreBom: boolean, bytes: Uint8Array): string | number;
  /** UTF-8 byte length of a string. */
  encodedLength(text: string): number;
  /** Writes a string's UTF-8 bytes into a context buffer, returning `read * 2^32 + written`. */
  encodeInto(text: string, into: Uint8Array): number;
  now(): number;
  /** Schedules a context callback; returns a numeric id (never the outer Timeout object). */
  setTimer(callback: () => void, ms: number): number;
  clearTimer(id: number): void;
  /** Strategy output (print), already capped in the context. */
  output(text: string): void;
  log(text: string): void;
}

export interface ContextLimits {
  wasmMemoryBytes: number;
  outputBytes: number;
  seed: number;
}

export interface ContextApi {
  outputExceeded(): boolean;
  memoryRefused(): boolean;
}

export function contextBootstrap(host: HostBridge, limits: ContextLimits): ContextApi {
  const fileSize = host.fileSize;
  const fillFile = host.fillFile;
  const readText = host.readText;
  const decode = host.decode;
  const encodedLength = host.encodedLength;
  const encodeInto = host.encodeInto;
  const now = host.now;
  const setTimer = host.setTimer;
  const clearTimer = host.clearTimer;
  const output = host.output;
  const log = host.log;
  const g = globalThis as unknown as Record<string, unknown>;
  let outputUsed = 0;
  let outputOver = false;
  let memoryOver = false;

  g.read = (name: unknown) => {
    const text = readText(String(name));
    if (typeof text !== 'string') throw new Error(`No such file: ${String(name)}`);
    return text;
  };
  g.load = () => {
    throw new Error('Loading scripts is not available in the strategy sandbox.');
  };
  g.readbuffer = (name: unknown) => {
    const n = fileSize(String(name));
    if (n < 0) throw new Error(`No such file: ${String(name)}`);
    const bytes = new Uint8Array(n);
    fillFile(String(name), bytes);
    return bytes.buffer;
  };

  const asBytes = (input: unknown): Uint8Array => {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    const view = input as ArrayBufferView;
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  };
  class SandboxTextDecoder {
    readonly encoding: string;
    readonly fatal: boolean;
    readonly ignoreBOM: boolean;
    constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) {
      this.encoding = String(label ?? 'utf-8').toLowerCase();
      this.fatal = Boolean(options?.fatal);
      this.ignoreBOM = Boolean(options?.ignoreBOM);
    }
    decode(input?: unknown): string {
      const text = decode(this.encoding, this.fatal, this.ignoreBOM, asBytes(input));
      if (typeof text !== 'string') throw new TypeError('The encoded data was not valid.');
      return text;
    }
  }
  class SandboxTextEncoder {
    readonly encoding = 'utf-8';
    encode(text = ''): Uint8Array {
      const s = String(text);
      const bytes = new Uint8Array(encodedLength(s));
      encodeInto(s, bytes);
      return bytes;
    }
    encodeInto(text: string, into: Uint8Array): { read: number; written: number } {
      const packed = encodeInto(String(text), into);
      return { read: Math.floor(packed / 4294967296), written: packed % 4294967296 };
    }
  }
  g.TextDecoder = SandboxTextDecoder;
  g.TextEncoder = SandboxTextEncoder;

  // xorshift32: Python's hash seed and `random` draw from here, so a run is reproducible.
  let state = limits.seed >>> 0 || 0x9e3779b9;
  g.crypto = {
    getRandomValues(view: ArrayBufferView) {
      const bytes = asBytes(view);
      for (let i = 0; i < bytes.length; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        bytes[i] = state & 0xff;
      }
      return view;
    },
  };
  g.setTimeout = (callback: () => void, ms?: number) => setTimer(() => callback(), Number(ms) || 0);
  g.clearTimeout = (id: number) => clearTimer(Number(id));
  g.performance = { now: () => now() };
  const line = (...parts: unknown[]) => log(parts.map((p) => String(p)).join(' '));
  g.console = { log: line, info: line, warn: line, error: line, debug: line };

  // The wasm heap grows through Memory.prototype.grow; refusing past the limit makes malloc fail,
  // which Python reports as MemoryError.
  const memoryProto = WebAssembly.Memory.prototype;
  const grow = memoryProto.grow;
  if (limits.wasmMemoryBytes > 0)
    memoryProto.grow = function (this: WebAssembly.Memory, pages: number) {
      if (this.buffer.byteLength + pages * 65536 > limits.wasmMemoryBytes) {
        memoryOver = true;
        throw new RangeError('Strategy memory limit reached.');
      }
      return grow.call(this, pages);
    };

  g.__sandboxOutput = (text: unknown) => {
    if (outputOver) throw new Error('Strategy output limit reached.');
    const s = String(text);
    outputUsed += s.length;
    if (outputUsed > limits.outputBytes) {
      outputOver = true;
      throw new Error('Strategy output limit reached.');
    }
    output(s);
  };

  return { outputExceeded: () => outputOver, memoryRefused: () => memoryOver };
}
