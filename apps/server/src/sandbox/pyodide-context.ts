/**
 * Child-process side: builds the `node:vm` context, gives it the bootstrap shims and Pyodide's own files
 * (read once by the trusted outer realm, which alone has read access to them), and loads Pyodide in it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { contextBootstrap, type ContextApi, type ContextLimits, type HostBridge } from './context-bootstrap';

/** Files the context may read, by the name Pyodide asks for. */
const PYODIDE_FILES = ['pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;
const INDEX_URL = '/pyodide/';

export interface LoadedPyodide {
  context: vm.Context;
  /** The Pyodide API object; it lives in the context, so everything read from it is untrusted data. */
  pyodide: PyodideApi;
  api: ContextApi;
  /** The interpreter's memory right after start-up, when no snapshot was given (see loadPyodideInContext). */
  snapshot?: Uint8Array;
}

/** The small part of Pyodide's API the runtime uses. */
export interface PyodideApi {
  runPython(code: string, options?: { globals?: unknown }): unknown;
  globals: { get(name: string): unknown };
  unregisterJsModule(name: string): void;
  setStdout(options: { batched: (text: string) => void }): void;
  setStderr(options: { batched: (text: string) => void }): void;
  makeMemorySnapshot(): Uint8Array;
}

/**
 * Emscripten's "shell" runtime draws random bytes by running `sh` through d8's os.system; in the
 * context there is no such thing, so it must use the context's (seeded) crypto.getRandomValues.
 */
const SHELL_RANDOM = 'if(ENVIRONMENT_IS_SHELL){return view=>{if(!os.system)';
function patchAsm(source: string): string {
  if (!source.includes(SHELL_RANDOM))
    throw new Error('Unexpected pyodide.asm.mjs: the shell random source was not found.');
  return source.replace(SHELL_RANDOM, 'if(false){return view=>{if(!os.system)');
}

function moduleAsScript(source: string, exportName: string, globalName: string): string {
  return source
    .replaceAll('import.meta.url', JSON.stringify(`${INDEX_URL}pyodide.asm.mjs`))
    .replace(new RegExp(`export\\s*\\{[^}]*\\b(\\w+) as ${exportName}\\b[^}]*\\};?`), (_m, local: string) => {
      return `globalThis.${globalName} = ${local};`;
    })
    .replace(/export default (\w+);/, (_m, local: string) => `globalThis.${globalName} = ${local};`);
}

/**
 * Loads Pyodide in a fresh context. Booting the interpreter takes seconds; restoring a memory snapshot
 * of a freshly booted one (taken before any strategy code ran) takes a fraction of that, so the first
 * sandbox makes the snapshot and the server hands it to the next ones.
 */
export async function loadPyodideInContext(
  pyodideDir: string,
  limits: ContextLimits,
  output: (text: string) => void,
  snapshot?: Uint8Array,
): Promise<LoadedPyodide> {
  const files = new Map<string, Buffer>();
  for (const name of PYODIDE_FILES) files.set(INDEX_URL + name, readFileSync(path.join(pyodideDir, name)));
  const loaderSource = moduleAsScript(
    readFileSync(path.join(pyodideDir, 'pyodide.mjs'), 'utf8'),
    'loadPyodide',
    '__loadPyodide',
  );
  const asmSource = moduleAsScript(
    patchAsm(readFileSync(path.join(pyodideDir, 'pyodide.asm.mjs'), 'utf8')),
    'default',
    '__createPyodideModule',
  );

  const timers = new Map<number, NodeJS.Timeout>();
  let nextTimer = 1;
  const host: HostBridge = {
    fileSize: (name) => files.get(name)?.length ?? -1,
    fillFile: (name, into) => {
      const data = files.get(name);
      if (data && ArrayBuffer.isView(into) && into.byteLength === data.length) into.set(data);
    },
    readText: (name) => files.get(name)?.toString('utf8') ?? -1,
    decode: (encoding, fatal, ignoreBom, bytes) => {
      try {
        return new TextDecoder(encoding, { fatal, ignoreBOM: ignoreBom }).decode(bytes);
      } catch {
        return -1;
      }
    },
    encodedLength: (text) => Buffer.byteLength(String(text), 'utf8'),
    encodeInto: (text, into) => {
      try {
        const r = new TextEncoder().encodeInto(String(text), into);
        return r.read * 4294967296 + r.written;
      } catch {
        return 0;
      }
    },
    now: () => performance.now(),
    setTimer: (callback, ms) => {
      const id = nextTimer++;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          callback();
        }, ms),
      );
      return id;
    },
    clearTimer: (id) => {
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
    output: (text) => output(String(text)),
    log: () => undefined,
  };

  const context = vm.createContext({}, { name: 'strategy', codeGeneration: { strings: false, wasm: true } });
  const bootstrap = vm.runInContext(`(${contextBootstrap.toString()})`, context) as typeof contextBootstrap;
  const api = bootstrap(host, { ...limits });
  vm.runInContext(loaderSource, context, { filename: 'pyodide.mjs' });
  vm.runInContext(asmSource, context, { filename: 'pyodide.asm.mjs' });
  let snapshotInContext: Uint8Array | undefined;
  if (snapshot) {
    snapshotInContext = new (vm.runInContext('Uint8Array', context) as Uint8ArrayConstructor)(
      snapshot.length,
    );
    snapshotInContext.set(snapshot);
  }
  const start = vm.runInContext(
    `(async (snapshot) => {
      const load = globalThis.__loadPyodide;
      const create = globalThis.__createPyodideModule;
      delete globalThis.__loadPyodide;
      delete globalThis.__createPyodideModule;
      const py = await load({
        indexURL: ${JSON.stringify(INDEX_URL)},
        lockFileContents: JSON.parse(read(${JSON.stringify(`${INDEX_URL}pyodide-lock.json`)})),
        createPyodideModule: create,
        jsglobals: globalThis,
        env: {},
        stdout: () => undefined,
        stderr: () => undefined,
        ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }),
      });
      const made = snapshot ? undefined : py.makeMemorySnapshot();
      const out = globalThis.__sandboxOutput;
      delete globalThis.__sandboxOutput;
      py.setStdout({ batched: (s) => out(s + '\\n') });
      py.setStderr({ batched: (s) => out(s + '\\n') });
      py.unregisterJsModule('js');
      return [py, made];
    })`,
    context,
  ) as (snapshot?: Uint8Array) => Promise<[PyodideApi, Uint8Array | undefined]>;
  const [pyodide, made] = await start(snapshotInContext);
  return { context, pyodide, api, ...(made ? { snapshot: new Uint8Array(made) } : {}) };
}
