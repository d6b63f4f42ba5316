import { useScriptedServer } from '../../../test-support/use-scripted-server';
import { startScriptedLlm, type ScriptedLlm } from './scripted-llm';

/**
 * One scripted Messages-API server for the test file: started before all tests, reset before each,
 * stopped after all. Returns a stand-in that forwards to it once it runs.
 */
export function useScriptedLlm(): ScriptedLlm {
  return useScriptedServer(() => startScriptedLlm(), 'the scripted LLM server');
}
