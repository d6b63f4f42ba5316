import { startScriptedOpenAi, type ScriptedOpenAi } from './scripted-openai';
import { useScriptedServer } from './use-scripted-server';

/** One scripted OpenAI-compatible endpoint for the test file (started, reset before each test, stopped). */
export function useScriptedOpenAi(): ScriptedOpenAi {
  return useScriptedServer(() => startScriptedOpenAi(), 'the scripted OpenAI server');
}
