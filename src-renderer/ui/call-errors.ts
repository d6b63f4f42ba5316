/** One rejected field as the host reports it in an `invalid_input` error's `data`. */
export interface FieldIssue {
  /** Segments as sent: zod's own checks stringify indexes ('2'), the host's own checks keep numbers. */
  path: (string | number)[];
  message: string;
}

function isIssue(value: unknown): value is FieldIssue {
  if (typeof value !== 'object' || value === null) return false;
  const { path, message } = value as Record<string, unknown>;
  return Array.isArray(path) && typeof message === 'string';
}

/** The field issues a rejected call carries (empty when it carries none). */
export function issuesOf(error: unknown): FieldIssue[] {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.filter(isIssue) : [];
}

/**
 * A human message for any rejection. Input the contract's schemas refused reads as their own messages
 * ("A title is required"), which are written for people, not as the core's summary, which names the
 * method and the field paths ("Invalid input for renameConversation: title: …").
 */
export function messageOf(error: unknown): string {
  const issues = issuesOf(error);
  if (issues.length > 0 && (error as { code?: unknown }).code === 'invalid_input')
    return [...new Set(issues.map((i) => i.message))].join('; ');
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}
