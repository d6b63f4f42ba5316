import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLongRuns } from './tokenizer';
import { TokenCounter, toolDefinitionText } from './token-counter';

const encoder = new Tiktoken(o200k);
// Counts on its worker thread, as the host does.
const counter = new TokenCounter();
const countTokens = (text: string) => counter.count(text);
afterAll(() => counter.dispose());

describe('token counts', () => {
  it('count ordinary text exactly as js-tiktoken does, also when it is long enough to be counted in chunks', async () => {
    const sentence = 'The quick brown fox jumps over the lazy dog, then files issue #30 about context windows. ';
    const long = sentence.repeat(600); // ≈ 54 KB: several chunks
    expect(await countTokens(sentence)).toBe(encoder.encode(sentence).length);
    expect(await countTokens(long)).toBe(encoder.encode(long).length);
    expect(await countTokens('')).toBe(0);
  });

  it('count text that spells a special token as the text it is, instead of refusing it', async () => {
    const text = 'A log line quoting <|endoftext|> and <|im_start|> from a model’s output.';
    // js-tiktoken with no special tokens disallowed: the same text, counted as ordinary characters.
    expect(await countTokens(text)).toBe(encoder.encode(text, [], []).length);
  });

  it('count a known tool list as js-tiktoken counts the definitions a request carries', async () => {
    const tools = [
      {
        name: 'files__read',
        description: '[files] Reads a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
      { name: 'math__sum', inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
    ];
    expect(await counter.countTools(tools)).toEqual(tools.map((t) => encoder.encode(toolDefinitionText(t)).length));
    expect(JSON.parse(toolDefinitionText(tools[1]))).toEqual({
      name: 'math__sum',
      input_schema: { type: 'object', ...tools[1].inputSchema },
    });
  });

  it('count a 100 KB description without a space in slices, letting the event loop turn in between', async () => {
    const blob = 'QUJD'.repeat(25_000);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const tokens = await countTokens(`Returns this blob: ${blob}`);
    ticking = false;
    // The count is answered from the worker: the host's loop turned at least once before the answer
    // (a count made on this thread would resolve before any turn). One turn, not two: on a loaded box
    // the worker can finish while this thread waits for a core.
    expect(turns).toBeGreaterThan(0);
    // Base64-like text is 2–5 characters a token; slices add at most one token each.
    expect(tokens).toBeGreaterThan(100_000 / 8);
    expect(tokens).toBeLessThan(100_000 / 1.5);
    // Slices of the run, after the text before it.
    const parts = [...splitLongRuns(`Returns this blob: ${blob}`)];
    expect(parts[0]).toBe('Returns this blob: ');
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(32);
  });
});
