/**
 * `npm run icons`: every icon the installers and the window need, from the one source
 * `resources/icon.svg` — a PNG set for Linux (`resources/icons/png/NxN.png`, also the window icon),
 * `icon.ico` for Windows and `icon.icns` for macOS. The results are committed, so building
 * installers needs no generation step; run this after changing the SVG (a test notices when the
 * committed icons no longer match it).
 *
 * SVG rendering: @resvg/resvg-js (prebuilt per platform, no install script). ICO/ICNS encoding:
 * @shockpkg/icon-encoder (plain JavaScript).
 */
import { Resvg } from '@resvg/resvg-js';
import { IconIcns, IconIco } from '@shockpkg/icon-encoder';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Linux hicolor sizes (and the window icon, 512). */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Sizes inside the Windows .ico (256 is the largest the format holds). */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/**
 * The .icns entries, in iconutil's order: OSType and pixel size (the `@2x` ones are twice their nominal size).
 * @type {[string, number][]}
 */
export const ICNS_ENTRIES = [
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic04', 16],
  ['ic14', 512],
  ['ic09', 512],
  ['ic05', 32],
  ['ic10', 1024],
  ['ic11', 32],
];

export const DEFAULT_SOURCE = path.join(root, 'resources', 'icon.svg');
export const DEFAULT_OUT_DIR = path.join(root, 'resources', 'icons');

/** The SVG rendered at `size` × `size` pixels, as PNG bytes. */
export function renderPng(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

/**
 * Writes the whole icon set for `source` into `outDir` and returns the paths written (relative to
 * `outDir`). Everything is rendered first and written last, into a temporary folder renamed into
 * place, so a failure never leaves half a set.
 */
export async function generateIcons({ source = DEFAULT_SOURCE, outDir = DEFAULT_OUT_DIR } = {}) {
  const svg = fs.readFileSync(source);
  const sizes = [...new Set([...PNG_SIZES, ...ICO_SIZES, ...ICNS_ENTRIES.map(([, size]) => size)])];
  const pngs = new Map(sizes.map((size) => [size, renderPng(svg, size)]));

  const ico = new IconIco();
  for (const size of [...ICO_SIZES].reverse()) await ico.addFromPng(pngs.get(size), null);
  const icns = new IconIcns();
  icns.toc = true;
  for (const [type, size] of ICNS_ENTRIES) await icns.addFromPng(pngs.get(size), [type]);

  const files = new Map([
    ...PNG_SIZES.map((size) => [path.join('png', `${size}x${size}.png`), pngs.get(size)]),
    ['icon.ico', ico.encode()],
    ['icon.icns', icns.encode()],
  ]);
  const staging = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    for (const [name, bytes] of files) {
      fs.mkdirSync(path.dirname(path.join(staging, name)), { recursive: true });
      fs.writeFileSync(path.join(staging, name), bytes);
    }
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.renameSync(staging, outDir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return [...files.keys()].sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  generateIcons().then(
    (written) => console.log(`icons: wrote ${written.length} files to ${path.relative(root, DEFAULT_OUT_DIR)}/ from resources/icon.svg`),
    (error) => {
      console.error(`icons: ${error.message}`);
      process.exit(1);
    },
  );
}
