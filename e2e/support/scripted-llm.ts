/**
 * The scripted Messages-API server for a spec file: started once, reset before each test, stopped at
 * the end. The web host inherits this process's environment, so a key from the developer's shell is
 * removed first: it must not make the "no API key" case pass or reach the scripted server.
 */
import { startScriptedLlm, type ScriptedLlm } from '../../src-main/core/chat/test-support/scripted-llm';
import { test } from './web-host';

/** Registers the hooks; call the returned function inside a test to get the running server. */
export function useScriptedLlm(): () => ScriptedLlm {
  delete process.env.ANTHROPIC_API_KEY;
  let llm: ScriptedLlm | undefined;
  test.beforeAll(async () => {
    llm = await startScriptedLlm();
  });
  test.afterAll(async () => {
    await llm?.stop();
  });
  test.beforeEach(async () => {
    await llm?.reset();
  });
  return () => {
    if (!llm) throw new Error('The scripted LLM is not running (useScriptedLlm hooks did not run)');
    return llm;
  };
}
