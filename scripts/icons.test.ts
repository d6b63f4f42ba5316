import { decodePngToRgba } from '@shockpkg/icon-encoder';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../src-main/test-support/temp-dir';
import { DEFAULT_OUT_DIR, DEFAULT_SOURCE, generateIcons, ICNS_ENTRIES, ICO_SIZES, PNG_SIZES, renderPng } from './icons.mjs';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes);
  expect(view.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(view.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** The image sizes inside an .ico (0 in the directory means 256). */
function icoSizes(bytes: Buffer): number[] {
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1); // icon, not cursor
  const count = bytes.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => bytes[6 + i * 16] || 256);
}

/** The entry types of an .icns, in order, and its declared length. */
function icnsEntries(bytes: Buffer): { length: number; types: string[] } {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('icns');
  const types: string[] = [];
  for (let offset = 8; offset < bytes.length; offset += bytes.readUInt32BE(offset + 4))
    types.push(bytes.subarray(offset, offset + 4).toString('latin1'));
  return { length: bytes.readUInt32BE(4), types };
}

function checkSet(dir: string) {
  for (const size of PNG_SIZES)
    expect(pngSize(fs.readFileSync(path.join(dir, 'png', `${size}x${size}.png`)))).toEqual({ width: size, height: size });
  expect(icoSizes(fs.readFileSync(path.join(dir, 'icon.ico'))).sort((a, b) => a - b)).toEqual(ICO_SIZES);
  const icns = fs.readFileSync(path.join(dir, 'icon.icns'));
  const { length, types } = icnsEntries(icns);
  expect(length).toBe(icns.length);
  expect(types).toEqual(['TOC ', ...ICNS_ENTRIES.map(([type]) => type)]);
}

describe('icon generation (npm run icons)', () => {
  it('makes every size and format from the one SVG, atomically', async () => {
    const outDir = path.join(tempDir(), 'icons');
    const written = await generateIcons({ source: DEFAULT_SOURCE, outDir });
    expect(written).toEqual([...PNG_SIZES.map((s) => path.join('png', `${s}x${s}.png`)), 'icon.icns', 'icon.ico'].sort());
    checkSet(outDir);
    expect(fs.readdirSync(path.dirname(outDir))).toEqual(['icons']); // no staging folder left
  });

  it('leaves the previous set alone when the source cannot be rendered', async () => {
    const dir = tempDir();
    const outDir = path.join(dir, 'icons');
    await generateIcons({ source: DEFAULT_SOURCE, outDir });
    fs.writeFileSync(path.join(dir, 'broken.svg'), '<svg');
    await expect(generateIcons({ source: path.join(dir, 'broken.svg'), outDir })).rejects.toThrow();
    checkSet(outDir);
    expect(fs.readdirSync(dir).sort()).toEqual(['broken.svg', 'icons']);
  });

  it('the committed icons are complete and match the SVG (run `npm run icons` after changing it)', async () => {
    checkSet(DEFAULT_OUT_DIR);
    const committed = await decodePngToRgba(fs.readFileSync(path.join(DEFAULT_OUT_DIR, 'png', '128x128.png')));
    const fresh = await decodePngToRgba(renderPng(fs.readFileSync(DEFAULT_SOURCE), 128));
    let difference = 0;
    for (let i = 0; i < fresh.data.length; i++) difference += Math.abs(fresh.data[i] - committed.data[i]);
    expect(difference / fresh.data.length).toBeLessThan(1); // identical but for rounding
  });
});
