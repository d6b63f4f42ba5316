/** `npm run web`: build if needed, then run web mode (out/main/web.js) with the given flags. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { runChild } from './run-child.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!buildIfNeeded(root)) process.exit(1);
runChild(process.execPath, [path.join(root, 'out', 'main', 'web.js'), ...process.argv.slice(2)]);
