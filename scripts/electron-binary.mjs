import fs from 'node:fs';
import path from 'node:path';

/**
 * Where electron's package says its binary is, without `require('electron')` (which would start a
 * download as a side effect). Returns the absolute path when the binary is really there.
 */
export function installedElectronBinary(root) {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) return undefined;
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : undefined;
}

export function electronVersion(root) {
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}
