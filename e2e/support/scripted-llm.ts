/** The scripted Messages-API server for a spec file (see src-main/core/chat/test-support/scripted-llm.ts). */
import { startScriptedLlm, type ScriptedLlm } from '../../src-main/core/chat/test-support/scripted-llm';
import { useScriptedServer } from './scripted-server';

/** Registers the hooks; call the returned function inside a test to get the running server. */
export function useScriptedLlm(): () => ScriptedLlm {
  return useScriptedServer(() => startScriptedLlm(), { what: 'The scripted LLM', dropEnv: ['ANTHROPIC_API_KEY'] });
}
