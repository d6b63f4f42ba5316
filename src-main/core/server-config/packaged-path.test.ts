import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideAsar } from './packaged-path';

describe('outsideAsar', () => {
  const resources = path.join(path.sep, 'opt', 'Patchbay', 'resources');

  it('maps a file inside app.asar onto its unpacked copy', () => {
    const inside = path.join(resources, 'app.asar', 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
    expect(outsideAsar(inside, resources)).toBe(
      path.join(resources, 'app.asar.unpacked', 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'),
    );
  });

  it('leaves everything else alone: not packaged, outside the archive, or a look-alike name', () => {
    const inside = path.join(resources, 'app.asar', 'x.js');
    expect(outsideAsar(inside, undefined)).toBe(inside);
    expect(outsideAsar(path.join(resources, 'app.asar.unpacked', 'x.js'), resources)).toBe(
      path.join(resources, 'app.asar.unpacked', 'x.js'),
    );
    expect(outsideAsar(path.join(resources, 'app.asarx', 'x.js'), resources)).toBe(path.join(resources, 'app.asarx', 'x.js'));
    expect(outsideAsar('/home/me/patchbay/node_modules/x/index.js', resources)).toBe('/home/me/patchbay/node_modules/x/index.js');
  });
});
