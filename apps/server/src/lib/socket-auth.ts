/**
 * The one token handshake of every WebSocket we serve (the price stream and the live-run log; see
 * docs/architecture.md, "The price stream"): the access token comes as `?token=` or as the first
 * message `{"token": "..."}` within 10 s; without a valid one the socket is closed with 4401.
 */
import type { WebSocket } from 'ws';
import { WS_CLOSE } from '@tradedesk/contract';
import type { AuthUser } from '../request-context';
import type { TokenService } from '../modules/auth/tokens';

const AUTH_WAIT_MS = 10_000;

/** Closes a socket with a reason cut to the 123 bytes a close frame allows. */
export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState <= 1) socket.close(code, Buffer.from(reason).subarray(0, 120).toString());
}

export function authoriseSocket(
  socket: WebSocket,
  tokens: TokenService,
  queryToken: string | undefined,
  onUser: (user: AuthUser) => void,
): void {
  let decided = false;
  const decide = async (token: string | undefined) => {
    if (decided) return;
    decided = true;
    clearTimeout(timer);
    const user = token ? await tokens.verifyAccess(token) : null;
    if (socket.readyState !== 1) return;
    if (!user)
      return closeSocket(
        socket,
        WS_CLOSE.unauthorized,
        'Authentication failed: a valid access token is required.',
      );
    onUser(user);
  };
  const timer = setTimeout(() => void decide(undefined), AUTH_WAIT_MS);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  if (queryToken) return void decide(queryToken);
  socket.once('message', (data) => {
    let token: string | undefined;
    try {
      const parsed: unknown = JSON.parse(String(data));
      if (parsed && typeof parsed === 'object' && typeof (parsed as { token?: unknown }).token === 'string')
        token = (parsed as { token: string }).token;
    } catch {
      token = undefined;
    }
    void decide(token);
  });
}
