// The parts of Pyodide (npm pyodide, vendored at /static/vendor/pyodide/) that scorer.js
// calls. Read by tsc only (tsconfig.workers.json maps the import to this file).
export interface PyodideModule { run(op: string, payload: string): string }
export interface Pyodide {
  unpackArchive(buffer: Uint8Array, format: string, options: { extractDir: string }): void;
  runPython(code: string): unknown;
  pyimport(name: string): PyodideModule;
  makeMemorySnapshot(): Uint8Array<ArrayBuffer>;
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: Uint8Array): void };
}
export const version: string;
export function loadPyodide(options: {
  indexURL: string; _loadSnapshot?: Promise<ArrayBuffer>; _makeSnapshot?: boolean;
}): Promise<Pyodide>;
