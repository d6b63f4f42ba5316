/** The scripted OpenAI-compatible endpoint for a spec file (see src-main/test-support/scripted-openai.ts). */
import { startScriptedOpenAi, type ScriptedOpenAi } from '../../src-main/test-support/scripted-openai';
import { useScriptedServer } from './scripted-server';

/** Registers the hooks; call the returned function inside a test to get the running server. */
export function useScriptedOpenAi(): () => ScriptedOpenAi {
  return useScriptedServer(() => startScriptedOpenAi(), { what: 'The scripted OpenAI API', dropEnv: ['OPENAI_API_KEY'] });
}
