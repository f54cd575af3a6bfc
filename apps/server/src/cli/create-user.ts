import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { usersService } from '../modules/users/users.service';
import { passwordField, usernameField } from '@tradedesk/contract';

/** `npm run user:create -- --username NAME [--staff] [--password-stdin]` */
async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  const ask = (q: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(q);
      muted._writeToOutput = () => {};
      rl.question('', (a) => {
        process.stdout.write('\n');
        resolve(a);
      });
    });
  const first = await ask('Password: ');
  const second = await ask('Password (again): ');
  rl.close();
  if (first !== second) throw new Error('The two passwords differ.');
  return first;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      staff: { type: 'boolean', default: false },
      'password-stdin': { type: 'boolean', default: false },
    },
  });
  const username = usernameField.safeParse(values.username ?? '');
  if (!username.success) throw new Error(`--username: ${username.error.issues[0]?.message}`);
  const password = passwordField.safeParse(await readPassword(values['password-stdin'] ?? false));
  if (!password.success) throw new Error(`password: ${password.error.issues[0]?.message}`);
  const { app, ctx } = await buildApp(loadConfig(process.env, { logLevel: 'warn' }));
  try {
    const user = await usersService(ctx).create(username.data, password.data, values.staff ?? false);
    console.log(`Created user ${user.username}${user.is_staff ? ' (staff)' : ''}.`);
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  const e = err as { detail?: unknown; message?: string };
  console.error(e.detail ? JSON.stringify(e.detail) : e.message);
  process.exit(1);
});
