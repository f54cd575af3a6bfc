import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closing must not wait on clients. Price WebSockets are told the server is going away (1001); a
 * second later every connection with no request running is cut: upgraded sockets, upgrades still under
 * way when closing began (Fastify answers those 503 into a socket nobody closes), and connections that
 * never sent a request. Any held `server.close()` until the client left. Requests still running after
 * `graceMs` lose their connections too. The process-level watchdog (lib/watchdog.ts) is the last resort.
 */
export function registerGracefulClose(app: FastifyInstance, graceMs = 5_000): void {
  const running = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    running.set(socket, 0);
    socket.once('close', () => running.delete(socket));
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    running.set(socket, (running.get(socket) ?? 0) + 1);
    res.once('close', () => running.has(socket) && running.set(socket, running.get(socket)! - 1));
  });
  const upgraded = new Set<Socket>();
  app.server.on('upgrade', (_req, socket: Socket) => {
    running.delete(socket); // no HTTP request runs on it any more
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });

  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    const started = Date.now();
    const cut = () => {
      const elapsed = Date.now() - started;
      if (elapsed < 1_000)
        for (const ws of app.websocketServer.clients) ws.close(1001, 'Server shutting down');
      else {
        for (const ws of app.websocketServer.clients) ws.terminate();
        for (const [socket, n] of running) if (n === 0) socket.destroy();
        for (const socket of upgraded) socket.destroy();
      }
      if (elapsed >= graceMs) app.server.closeAllConnections();
    };
    cut();
    sweep = setInterval(cut, 200);
    sweep.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(sweep);
    done();
  });
}
