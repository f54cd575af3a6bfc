/**
 * Escape suite: each strategy tries to reach outside the sandbox and must fail with a clear error,
 * without effect. Runs real sandbox processes (Pyodide start-up is seconds, so a few at a time).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInSandbox, type SandboxLimits, type SandboxOutcome } from './host';
import { sandboxTestRequest } from '../testing/sandbox-bars';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-escape-'));
writeFileSync(path.join(dataDir, 'jwt-secret'), 'the-server-secret');
const marker = path.join(dataDir, 'written-by-strategy');
const SECRET_ENV = 'the-env-secret-value';
process.env.TRADEDESK_ESCAPE_PROBE = SECRET_ENV;

/** Wraps attacking code into a vectorised strategy whose signals() runs it. */
const strategy = (body: string) =>
  `def signals(data, params):\n${body
    .trim()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n    return {}\n`;

const attempts: { name: string; body: string; error: RegExp; limits?: Partial<SandboxLimits> }[] = [
  {
    name: 'read /etc/passwd',
    body: `open('/etc/passwd').read()`,
    error: /FileNotFoundError: .*No such file or directory: '\/etc\/passwd'/,
  },
  {
    name: 'read DATA_DIR',
    body: `open(${JSON.stringify(path.join(dataDir, 'jwt-secret'))}).read()`,
    error: /FileNotFoundError/,
  },
  {
    name: 'write into DATA_DIR',
    body: `open(${JSON.stringify(marker)}, 'w').write('x')`,
    error: /FileNotFoundError|PermissionError|OSError/,
  },
  {
    name: 'process.env / JWT secret through import js',
    body: `import js\nprint(js.process.env)`,
    error: /ImportError: module 'js' is not available in the strategy sandbox/,
  },
  {
    name: 'pyodide.ffi',
    body: `from pyodide.ffi import to_js`,
    error: /ImportError: module 'pyodide(\.ffi)?' is not available/,
  },
  {
    name: 'pyodide_js',
    body: `import pyodide_js`,
    error: /ImportError: module 'pyodide_js' is not available/,
  },
  {
    name: 'JS proxy found by the garbage collector, then Function("return process")',
    body: `
import gc
proxies = [o for o in gc.get_objects() if 'JsProxy' in type(o).__name__]
if not proxies:
    raise LookupError('no JS object reachable')
f = proxies[0].constructor.constructor
print(f('return process')().env)`,
    error:
      /LookupError: no JS object reachable|Code generation from strings disallowed|AttributeError|TypeError/,
  },
  {
    name: 'environment variables',
    body: `import os\nassert '${SECRET_ENV}' not in str(os.environ), 'leak'\nraise RuntimeError('env has ' + str(len(os.environ)) + ' keys, no secret')`,
    error: /RuntimeError: env has \d+ keys, no secret/,
  },
  {
    name: 'open a socket',
    body: `import socket\nsocket.create_connection(('127.0.0.1', 80))`,
    error: /ImportError: module 'socket' is not available/,
  },
  {
    name: 'HTTP request',
    body: `import urllib.request\nurllib.request.urlopen('http://127.0.0.1/')`,
    error: /ImportError: module 'urllib.request' is not available/,
  },
  {
    name: 'spawn through subprocess',
    body: `import subprocess\nsubprocess.run(['id'])`,
    error: /ImportError: module 'subprocess' is not available/,
  },
  {
    name: 'spawn through os.system',
    body: `import os\nos.system('id')`,
    error: /PermissionError: starting processes is not available in the strategy sandbox/,
  },
  {
    name: 'ctypes',
    body: `import ctypes\nctypes.CDLL(None)`,
    error: /ImportError: module 'ctypes' is not available/,
  },
  {
    name: 'infinite loop',
    body: `while True:\n    pass`,
    error: /Strategy exceeded the time limit of 15 s\./,
    limits: { wallMs: 15_000 },
  },
  {
    name: 'memory bomb',
    body: `hog = []\nwhile True:\n    hog.append(bytearray(50_000_000))`,
    error: /Strategy exceeded the memory limit of 400 MB\./,
    limits: { memoryMb: 400 },
  },
  {
    name: 'print flood',
    body: `while True:\n    print('x' * 10000)`,
    error: /Strategy output exceeded the limit of 65536 bytes\./,
  },
  {
    name: 'fork bomb through threads',
    body: `import threading\ndef bomb():\n    while True:\n        threading.Thread(target=bomb).start()\nbomb()`,
    error: /RuntimeError: can't start new thread/,
  },
];

const outcomes = new Map<string, SandboxOutcome>();
afterAll(() => {
  const contained = [...outcomes.values()].filter((o) => !o.ok).length;
  console.log(`escape suite: ${contained}/${attempts.length} attempts contained`);
});

describe('strategy sandbox escape suite', { timeout: 240_000 }, () => {
  // The first sandbox boots the interpreter and leaves the snapshot the others restore.
  beforeAll(async () => {
    await runInSandbox(sandboxTestRequest(strategy('pass')));
  }, 240_000);

  it.concurrent.each(attempts)('contains: $name', async ({ name, body, error, limits }) => {
    const outcome = await runInSandbox(sandboxTestRequest(strategy(body)), {
      // Generous: several sandboxes start at once, and the suite may share the cores with others.
      limits: { wallMs: 120_000, ...limits },
    });
    outcomes.set(name, outcome);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toMatch(error);
      expect(outcome.error).not.toContain('the-server-secret');
      expect(outcome.error).not.toContain(SECRET_ENV);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('runs under the permission model with no write, child-process or worker grant and an empty environment', async () => {
    const outcome = await runInSandbox(sandboxTestRequest(strategy('pass')));
    expect(outcome.ok).toBe(true);
    if (outcome.ok)
      expect(outcome.isolation).toEqual({
        permission: true,
        fsWrite: false,
        childProcess: false,
        worker: false,
        envKeys: 0,
      });
  });

  it('reports a strategy error with its Python traceback line', async () => {
    const code = 'def signals(data, params):\n    x = 1\n    raise ValueError("bad threshold")\n';
    const outcome = await runInSandbox(sandboxTestRequest(code));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toContain('File "<strategy>", line 3, in signals');
      expect(outcome.error).toContain('raise ValueError("bad threshold")');
      expect(outcome.error).toContain('ValueError: bad threshold');
    }
  });
});
