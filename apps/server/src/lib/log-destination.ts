import { fstatSync } from 'node:fs';
import net from 'node:net';
import SonicBoom from 'sonic-boom';

/**
 * Where log lines go when nothing else is configured: stdout, written asynchronously, never blocking
 * the event loop or the exit. Past `maxBytes` of backlog (a reader that stopped reading) lines are
 * dropped, and a reader that is gone (EPIPE) turns logging off.
 *
 * A pipe or socket (how `npm start`, systemd and container runtimes hand us stdout) is written through
 * a libuv stream: the fd is switched to non-blocking and writes wait on the event loop, so a process
 * that exits leaves unsent lines behind instead of waiting for them. Written with `fs.write`, as
 * sonic-boom does, a full pipe blocks a thread-pool thread in write(2), and `process.exit()` then
 * waits for that thread forever (docs/security.md, "Shutdown"). Files and terminals keep sonic-boom.
 * Nothing else in the server writes to `process.stdout` (a second handle on fd 1 would compete).
 */
export interface LogDestination {
  write(line: string): void;
  /** Tries to write what is buffered within `ms`, never blocking; resolves either way. */
  drain(ms: number): Promise<void>;
}

export function createLogDestination(fd = 1, maxBytes = 4 * 1024 * 1024): LogDestination {
  let kind: 'stream' | 'file' = 'file';
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket()) kind = 'stream';
  } catch {
    // A closed fd: sonic-boom reports the error and logging turns itself off.
  }
  return kind === 'stream' ? streamDestination(fd, maxBytes) : fileDestination(fd, maxBytes);
}

/** Resolves on `event` or after `ms`, whichever comes first; the timer never keeps the process up. */
function waitFor(emitter: NodeJS.EventEmitter, event: string, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      emitter.off(event, done);
      resolve();
    }
    emitter.once(event, done);
  });
}

function streamDestination(fd: number, maxBytes: number): LogDestination {
  let gone = false;
  const socket = new net.Socket({ fd, readable: false, writable: true });
  socket.unref(); // logging never keeps the process alive
  socket.on('error', () => {
    gone = true;
    socket.destroy();
  });
  return {
    write(line) {
      if (!gone && socket.writableLength < maxBytes) socket.write(line);
    },
    drain(ms) {
      if (gone || socket.writableLength === 0) return Promise.resolve();
      return waitFor(socket, 'drain', ms);
    },
  };
}

function fileDestination(fd: number, maxBytes: number): LogDestination {
  let gone = false;
  // Bytes handed to sonic-boom and bytes it reports written: drain() waits while they differ.
  let queued = 0;
  let written = 0;
  const stream = new SonicBoom({ fd, sync: false, maxLength: maxBytes, retryEAGAIN: () => !gone });
  stream.on('error', () => {
    gone = true;
  });
  stream.on('write', (n: number) => (written += n));
  stream.on('drop', (line: string) => (queued -= Buffer.byteLength(line)));
  return {
    write(line) {
      if (gone) return;
      queued += Buffer.byteLength(line);
      stream.write(line);
    },
    drain(ms) {
      // sonic-boom emits 'drain' once its whole buffer is written (its flush() with minLength 0 calls
      // back at once, which lost the last lines of a log file at exit).
      if (gone || written >= queued) return Promise.resolve();
      return waitFor(stream, 'drain', ms);
    },
  };
}
