import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startScriptedOpenAi, type ScriptedOpenAi } from './scripted-openai';

/**
 * One scripted OpenAI-compatible endpoint for the test file: started before all tests, reset before
 * each, stopped after all. Returns a stand-in that forwards to it once it runs.
 */
export function useScriptedOpenAi(): ScriptedOpenAi {
  let current: ScriptedOpenAi | undefined;
  beforeAll(async () => {
    current = await startScriptedOpenAi();
  });
  afterAll(async () => {
    await current?.stop();
  });
  beforeEach(async () => {
    await current!.reset();
  });
  return new Proxy({} as ScriptedOpenAi, {
    get: (_target, key) => {
      if (!current) throw new Error('the scripted OpenAI server is not running (use it inside a test)');
      return Reflect.get(current, key);
    },
  });
}
