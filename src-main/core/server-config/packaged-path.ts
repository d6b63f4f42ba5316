import path from 'node:path';

/**
 * A file inside the packaged app's `app.asar`, as a path another process can run: the same file in
 * `app.asar.unpacked` (the builder configuration unpacks the preset servers and everything they
 * load). Only Electron's own fs sees into the archive; a preset server is a separate process on the
 * app's runtime (`ELECTRON_RUN_AS_NODE`), so it must start from real files. Anything outside the
 * archive — or any path at all when not packaged (`resourcesPath` undefined) — is returned as it is.
 */
export function outsideAsar(file: string, resourcesPath: string | undefined): string {
  if (!resourcesPath) return file;
  const archive = path.join(resourcesPath, 'app.asar');
  return file.startsWith(archive + path.sep) ? path.join(`${archive}.unpacked`, file.slice(archive.length + 1)) : file;
}
