import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The examples' regions, each as docs/architecture.md quotes it (indentation removed). */
function regions(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, body] of source.matchAll(/\/\/#region (\w+)\n([\s\S]*?)\n\s*\/\/#endregion \1/g)) {
    const lines = body!.split('\n');
    const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
    found.set(name!, lines.map((line) => line.slice(indent)).join('\n'));
  }
  return found;
}

describe('the contract examples', () => {
  it('are quoted by docs/architecture.md exactly as they compile', () => {
    const source = fs.readFileSync(path.join(__dirname, '../src-preload/contract/examples/host-api.examples.ts'), 'utf8');
    const docs = fs.readFileSync(path.join(__dirname, '../docs/architecture.md'), 'utf8');
    const found = regions(source);
    expect([...found.keys()]).toEqual(['addServer', 'runTool', 'readResource', 'sendMessage']);
    for (const [name, body] of found) expect(docs, `the ${name} example`).toContain('```ts\n' + body + '\n```');
  });
});
