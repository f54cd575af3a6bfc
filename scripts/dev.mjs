// `npm run dev`: the API with reload (tsx watch) and Vite with hot reload, side by side.
import { spawn } from 'node:child_process';

const procs = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT ?? '8000' },
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], {
    stdio: 'inherit',
    env: { ...process.env, API_ORIGIN: `http://127.0.0.1:${process.env.PORT ?? '8000'}` },
  }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs)
  p.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
