export interface AlertProps {
  /** What went wrong. While it is empty (absent, null, false or '') nothing is rendered at all. */
  message: string | false | null | undefined;
  /** Said before the message, e.g. "Could not load the log:" (a space joins them). */
  prefix?: string;
  /**
   * `warning` (the default): a page's, panel's or dialog's failure, in the warning box.
   * `field-error`: a form's failure, in the red of a field's error. `plain`: no look of its own.
   */
  tone?: 'warning' | 'field-error' | 'plain';
  /** For a control that points at this message with aria-describedby. */
  id?: string;
}

/**
 * A failure said in a paragraph screen readers announce (role="alert"), or nothing while there is none.
 * One component, so every page says its failures the same way: `<Alert message={error} />` in place
 * of `{error && <p role="alert" className="warning">{error}</p>}`. Failures that carry markup of
 * their own (a Dismiss button, a <code>, a list) write their own element with role="alert".
 */
export function Alert({ message, prefix, tone = 'warning', id }: AlertProps) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={tone === 'plain' ? undefined : tone}>
      {prefix ? `${prefix} ${message}` : message}
    </p>
  );
}
