import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from './scripted-llm';

/**
 * One scripted Messages-API server for the test file: started before all tests, reset before each,
 * stopped after all. Returns a stand-in that forwards to it once it runs.
 */
export function useScriptedLlm(): ScriptedLlm {
  let current: ScriptedLlm | undefined;
  beforeAll(async () => {
    current = await startScriptedLlm();
  });
  afterAll(async () => {
    await current?.stop();
  });
  beforeEach(async () => {
    await current!.reset();
  });
  return new Proxy({} as ScriptedLlm, {
    get: (_target, key) => {
      if (!current) throw new Error('the scripted LLM server is not running (use it inside a test)');
      return Reflect.get(current, key);
    },
  });
}
