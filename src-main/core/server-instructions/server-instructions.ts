/**
 * Server instructions in the system prompt. A server may say how its tools are best used (the
 * `instructions` of its initialize result, or of `server/discover` in the 2026 era). When the user
 * leaves them on, they go into the system prompt of chat requests that offer that server's tools —
 * each delimited and attributed, so the model knows who says what, and capped, so one server cannot
 * fill the context. They go only to the model: servers never see each other's instructions.
 */

/** Longest instructions sent for one server; the rest is cut, and the cut is said. */
export const MAX_INSTRUCTION_CHARS = 4_000;

/** One server's instructions, as it gave them. */
export interface ServerInstructions {
  serverId: string;
  serverName: string;
  text: string;
}

/** The block of one server's instructions: `<server-instructions server="memory">…</server-instructions>`. */
export function instructionsBlock({ serverName, text }: ServerInstructions): string {
  const trimmed = text.trim();
  const cut = trimmed.length > MAX_INSTRUCTION_CHARS;
  const body = (cut ? trimmed.slice(0, MAX_INSTRUCTION_CHARS) : trimmed)
    // Instructions cannot close their own block and speak as someone else.
    .replace(/<(\/?)server-instructions/gi, '&lt;$1server-instructions');
  const note = cut
    ? `\n[Patchbay cut these instructions at ${MAX_INSTRUCTION_CHARS.toLocaleString('en-US')} of their ${trimmed.length.toLocaleString('en-US')} characters.]`
    : '';
  return `<server-instructions server="${attribute(serverName)}">\n${body}${note}\n</server-instructions>`;
}

/**
 * The system prompt of a request: the user's own (Settings › Chat), then the instructions of the
 * servers whose tools the request offers, introduced so the model weighs them as a server's words.
 */
export function composeSystemPrompt(userPrompt: string, instructions: readonly ServerInstructions[]): string | undefined {
  const own = userPrompt.trim();
  const blocks = instructions.filter((i) => i.text.trim() !== '').map(instructionsBlock);
  if (blocks.length === 0) return own || undefined;
  const intro =
    'The MCP servers whose tools you have gave these instructions for using them. Each block is from the server it names; follow them for that server’s tools only.';
  return [own, intro, ...blocks].filter(Boolean).join('\n\n');
}

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
