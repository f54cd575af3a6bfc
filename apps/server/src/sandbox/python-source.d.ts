// Python sources are bundled into the sandbox worker as text (esbuild's text loader).
declare module '*.py' {
  const source: string;
  export default source;
}
