/**
 * Runs the fake MT5 bridge on its own, for local development and end-to-end tests:
 *   FAKE_MT5_PORT=8228 FAKE_MT5_LOGIN=5012345 FAKE_MT5_PASSWORD=demo-pass FAKE_MT5_SERVER=FakeBroker-Demo \
 *     npx tsx apps/server/src/testing/mt5/fake-bridge-main.ts
 * then start the server with MT5_BRIDGE_URL=http://127.0.0.1:8228.
 */
import { FakeMt5Bridge } from './fake-bridge';

const env = process.env;
const bridge = await FakeMt5Bridge.start({
  port: Number(env.FAKE_MT5_PORT ?? 8228),
  accounts: [
    {
      login: Number(env.FAKE_MT5_LOGIN ?? 5_012_345),
      password: env.FAKE_MT5_PASSWORD ?? 'demo-pass',
      server: env.FAKE_MT5_SERVER ?? 'FakeBroker-Demo',
    },
  ],
  ...(env.MT5_BRIDGE_TOKEN ? { bridgeToken: env.MT5_BRIDGE_TOKEN } : {}),
  tickMs: 250,
});
process.stdout.write(`fake MT5 bridge listening on ${bridge.url}\n`);
const stop = () => void bridge.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
