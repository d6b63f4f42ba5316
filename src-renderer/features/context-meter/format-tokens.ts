/** A token count as the meter shows it: "850", "4.1k", "12.4k", "128k", "1.2M" (always approximate: callers add "≈"). */
export function formatTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  if (tokens < 100_000) return `${trim((tokens / 1_000).toFixed(1))}k`;
  if (tokens < 1_000_000) return `${Math.round(tokens / 1_000)}k`;
  return `${trim((tokens / 1_000_000).toFixed(1))}M`;
}

function trim(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}
