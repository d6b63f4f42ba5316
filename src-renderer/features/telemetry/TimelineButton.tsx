import { Suspense, useState } from 'react';
import { useMountedOnceOpen } from '../../ui/lazy-part';
import { timelineDialogPart } from './timeline-part';

/** A chat message's **Timeline**: the turn that wrote it as a waterfall (a lazy dialog). */
export function TimelineButton({ conversationId, messageId }: { conversationId: string; messageId: number }) {
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
          <Dialog open={open} onOpenChange={setOpen} conversationId={conversationId} messageId={messageId} />
        </Suspense>
      )}
    </>
  );
}
