import { useAppStore } from '../../stores/use-app-store';

/** What navigation or the palette has to say (an address that fell back, an action that failed), until dismissed. */
export function ShellNotice() {
  const notice = useAppStore((s) => s.notice);
  const dismiss = useAppStore((s) => s.dismissNotice);
  if (!notice) return null;
  return (
    <div className="notices">
      <div className="notice notice-warning" role="status">
        <div className="notice-body">
          <p>{notice}</p>
        </div>
        <button type="button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
