/**
 * Shown while an app's view is asked for, its code arrives and its page starts: until the app says it
 * is initialized its frame is a blank page, often for seconds.
 */
export function AppLoading() {
  return (
    <p role="status" className="app-loading">
      <span className="app-loading-spinner" aria-hidden="true" />
      Loading app…
    </p>
  );
}
