// `npm start`: builds only when the sources changed since the last build, then serves the app.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildIsCurrent } from './build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (buildIsCurrent(root)) {
  console.log('The build is up to date with the sources; starting without rebuilding.');
} else {
  // `npm run build` ends by stamping the build with the sources it was made from.
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
