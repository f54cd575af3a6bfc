import SonicBoom from 'sonic-boom';

/**
 * Where log lines go when nothing else is configured: stdout, written asynchronously, never blocking
 * the event loop. A full pipe is retried on a timer; past `maxBytes` of backlog (a reader that stopped
 * reading) lines are dropped, and a reader that is gone (EPIPE) turns logging off. pino's own
 * `pino.destination()` flushes synchronously at exit and sleeps in `Atomics.wait` while the pipe stays
 * full, which kept stopped servers alive (docs/security.md, "Shutdown").
 */
export interface LogDestination {
  write(line: string): void;
  /** Tries to write what is buffered within `ms`, never blocking; resolves either way. */
  drain(ms: number): Promise<void>;
}

export function createLogDestination(fd = 1, maxBytes = 4 * 1024 * 1024): LogDestination {
  let gone = false;
  const stream = new SonicBoom({ fd, sync: false, maxLength: maxBytes, retryEAGAIN: () => !gone });
  stream.on('error', () => {
    gone = true;
  });
  return {
    write(line) {
      if (!gone) stream.write(line);
    },
    drain(ms) {
      if (gone) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        stream.once('drain', done);
        try {
          stream.flush((err) => (err ? undefined : done()));
        } catch {
          done();
        }
      });
    },
  };
}
