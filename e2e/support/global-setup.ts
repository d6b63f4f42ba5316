import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { REPO_ROOT, WEB_ENTRY } from './paths';

/**
 * Builds the app once when it has never been built. The test script builds before Playwright anyway,
 * so this only helps a bare `npx playwright test` on a fresh checkout; it does not check staleness.
 */
export default function globalSetup(): void {
  if (fs.existsSync(WEB_ENTRY)) return;
  console.log(`[e2e] ${WEB_ENTRY} is missing: running \`npx electron-vite build\`…`);
  execFileSync('npx', ['electron-vite', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (!fs.existsSync(WEB_ENTRY)) throw new Error(`The build finished but ${WEB_ENTRY} is still missing.`);
}
