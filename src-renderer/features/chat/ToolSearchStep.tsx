import { useRef } from 'react';
import type { ToolResultBlock, ToolUseBlock } from '@contract';
import { useIntentTarget } from '../../ui/use-intent-target';

/**
 * The model searched the tools (the host's tool search): one small line in the answer, "Searched
 * tools: 'sum' → 3 found", opening to the tools found. No card: the host answered it, nothing ran.
 */
export function ToolSearchStep({ call, result }: { call: ToolUseBlock; result?: ToolResultBlock }) {
  const query = typeof call.input.query === 'string' ? call.input.query : '';
  // A timeline's search bar leads here (the element rendered below takes the ref).
  const step = useRef<HTMLElement>(null);
  useIntentTarget('focus-tool-card', call.id, step);
  const line = (text: React.ReactNode) => (
    <p ref={step as React.RefObject<HTMLParagraphElement>} tabIndex={-1} className="tool-search-step muted">
      {text}
    </p>
  );
  if (!result) return line(`Searching tools: '${query}'…`);
  if (!result.toolSearch) {
    const why = result.content.find((part) => part.type === 'text')?.text ?? 'no answer';
    return line(`Tool search did not run: ${why}`);
  }
  const { found } = result.toolSearch;
  const summary = `Searched tools: '${result.toolSearch.query}' → ${found.length === 0 ? 'none' : found.length} found`;
  if (found.length === 0) return line(summary);
  return (
    <details ref={step as React.RefObject<HTMLDetailsElement>} tabIndex={-1} className="tool-search-step muted">
      <summary>{summary}</summary>
      <ul>
        {found.map((tool) => (
          <li key={tool.name}>
            <code>{tool.toolName}</code> <span>on {tool.serverName ?? tool.name}</span>
            {tool.flagged && <span className="tool-search-flag"> — flagged: {tool.flagged}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
