import { describe, expect, it } from 'vitest';
import { chooseModel } from './model-choice';

const MODELS = [
  { id: 'claude-sonnet-5-5', displayName: 'Claude Sonnet 5.5' },
  { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5' },
  { id: 'claude-haiku-5-5', displayName: 'Claude Haiku 5.5' },
];

describe('model preselection', () => {
  it('takes the first hint that matches, in order, and says so', () => {
    expect(chooseModel(MODELS, { hints: [{ name: 'gpt-9' }, { name: 'opus' }] }, 'claude-sonnet-5-5')).toEqual({
      model: 'claude-opus-5-5',
      reason: 'Matches the server\'s model hint "opus".',
    });
  });
  it('maps the highest priority onto a tier', () => {
    expect(chooseModel(MODELS, { intelligencePriority: 0.9, speedPriority: 0.2 }, 'claude-sonnet-5-5')).toMatchObject({
      model: 'claude-opus-5-5',
      reason: expect.stringContaining('intelligence'),
    });
    expect(chooseModel(MODELS, { costPriority: 0.8, intelligencePriority: 0.1 }, 'claude-sonnet-5-5')).toMatchObject({
      model: 'claude-haiku-5-5',
      reason: expect.stringContaining('low cost'),
    });
    expect(chooseModel(MODELS, { speedPriority: 1 }, 'claude-sonnet-5-5')).toMatchObject({
      model: 'claude-haiku-5-5',
      reason: expect.stringContaining('speed'),
    });
  });
  it('falls back to the default model, saying when hints did not match', () => {
    expect(chooseModel(MODELS, undefined, 'claude-sonnet-5-5')).toEqual({ model: 'claude-sonnet-5-5', reason: 'Your default model.' });
    expect(chooseModel(MODELS, { hints: [{ name: 'gemini' }] }, 'claude-sonnet-5-5').reason).toBe(
      "No available model matches the server's hints; your default model.",
    );
  });
});
