import { describe, expect, it } from 'vitest';
import { capabilityOf, chooseModel, type ChoosableModel } from './model-choice';

const anthropic = (id: string, displayName: string): ChoosableModel => ({
  providerId: 'anthropic',
  providerName: 'Anthropic',
  id,
  displayName,
  local: false,
});
const ollama = (id: string): ChoosableModel => ({ providerId: 'p-ollama', providerName: 'Ollama', id, displayName: id, local: true });
const openai = (id: string): ChoosableModel => ({ providerId: 'p-openai', providerName: 'OpenAI', id, displayName: id, local: false });

const CLAUDE = [
  anthropic('claude-sonnet-5-5', 'Claude Sonnet 5.5'),
  anthropic('claude-opus-5-5', 'Claude Opus 5.5'),
  anthropic('claude-haiku-5-5', 'Claude Haiku 5.5'),
];
const ALL = [...CLAUDE, openai('gpt-4o'), openai('gpt-4o-mini'), ollama('llama3.1:8b'), ollama('qwen2.5:32b')];
const DEFAULT = { providerId: 'anthropic', model: 'claude-sonnet-5-5' };

describe('model preselection over every provider', () => {
  it('takes the first hint that matches, in order, across providers, and says so', () => {
    expect(chooseModel(ALL, { hints: [{ name: 'gpt-9' }, { name: 'opus' }] }, DEFAULT)).toEqual({
      providerId: 'anthropic',
      model: 'claude-opus-5-5',
      reason: 'Matches the server\'s model hint "opus".',
    });
    expect(chooseModel(ALL, { hints: [{ name: 'llama3' }, { name: 'claude' }] }, DEFAULT)).toMatchObject({
      providerId: 'p-ollama',
      model: 'llama3.1:8b',
    });
    // Several matches: the default provider's model comes first.
    expect(chooseModel(ALL, { hints: [{ name: 'o' }] }, DEFAULT)).toMatchObject({ providerId: 'anthropic', model: 'claude-sonnet-5-5' });
  });

  it('weighs the priorities against the capability table, and says which one decided', () => {
    expect(chooseModel(CLAUDE, { intelligencePriority: 0.9, speedPriority: 0.2 }, DEFAULT)).toMatchObject({
      model: 'claude-opus-5-5',
      reason: expect.stringContaining('intelligence'),
    });
    expect(chooseModel(CLAUDE, { costPriority: 0.8, intelligencePriority: 0.1 }, DEFAULT)).toMatchObject({
      model: 'claude-haiku-5-5',
      reason: expect.stringMatching(/low cost.*cheapest/),
    });
    expect(chooseModel(CLAUDE, { speedPriority: 1 }, DEFAULT)).toMatchObject({
      model: 'claude-haiku-5-5',
      reason: expect.stringContaining('fastest'),
    });
  });

  it('counts a model on this computer as free: cost first picks a local model, and says so', () => {
    const choice = chooseModel(ALL, { costPriority: 1, intelligencePriority: 0.5 }, DEFAULT);
    expect(choice).toMatchObject({ providerId: 'p-ollama', model: 'qwen2.5:32b' });
    expect(choice.reason).toContain('runs on this computer');
    expect(capabilityOf(ollama('qwen2.5:32b'))).toEqual({ cost: 3, speed: 2, intelligence: 2 });
    expect(capabilityOf(openai('gpt-4o-mini'))).toEqual({ cost: 3, speed: 3, intelligence: 1 });
  });

  it('falls back to the default model, saying when hints did not match', () => {
    expect(chooseModel(ALL, undefined, DEFAULT)).toEqual({ ...DEFAULT, reason: 'Your default model.' });
    expect(chooseModel(ALL, { hints: [{ name: 'gemini' }] }, DEFAULT).reason).toBe(
      "No available model matches the server's hints; your default model.",
    );
    expect(chooseModel([], { costPriority: 1 }, DEFAULT)).toMatchObject(DEFAULT);
  });
});
