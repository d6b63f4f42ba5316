import { Suspense, useState } from 'react';
import type { TimelineTarget } from '@contract';
import { useMountedOnceOpen } from '../../ui/lazy-part';
import { timelineDialogPart } from './timeline-part';

/** **Timeline** of a chat message (the turn that wrote it) or of a lone call: a waterfall in a lazy dialog. */
export function TimelineButton({ target }: { target: TimelineTarget }) {
  const [open, setOpen] = useState(false);
  const mounted = useMountedOnceOpen(open);
  const Dialog = timelineDialogPart.Component;
  return (
    <>
      <button type="button" className="quiet" onClick={() => setOpen(true)}>
        Timeline
      </button>
      {mounted && (
        <Suspense fallback={null}>
          <Dialog open={open} onOpenChange={setOpen} target={target} />
        </Suspense>
      )}
    </>
  );
}
