/**
 * Bundled next to the web host by lib/web-host.ts, so that metric 2's data directory is written by
 * the same snapshot of the code as the web host that reads it (the tree changes under a long run).
 * Usage: node seed.mjs DATA_DIR SPECS_JSON
 */
import { seedInto } from './seed';

seedInto(process.argv[2], JSON.parse(process.argv[3]));
