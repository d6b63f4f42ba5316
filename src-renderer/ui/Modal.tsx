import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';

export interface ModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  /** 'alertdialog' for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  children: ReactNode;
}

/**
 * A Radix dialog with the app's look: focus trapped, Escape and the overlay close it (via onOpenChange).
 * Opened by state rather than a Radix Trigger, so it returns focus itself to whatever had it on open.
 * A control marked `data-autofocus` gets the initial focus (else the first focusable one does).
 */
export function Modal({ open, onOpenChange, title, description, role = 'dialog', className, children }: ModalProps) {
  const opener = useRef<HTMLElement | null>(null);
  const onOpenAutoFocus = (event: Event) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const preferred = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('[data-autofocus]');
    if (preferred) {
      event.preventDefault();
      preferred.focus();
    }
  };
  const onCloseAutoFocus = (event: Event) => {
    event.preventDefault();
    // Something the dialog led to already took the focus (a timeline bar's card): it keeps it.
    const active = document.activeElement;
    const led = active instanceof HTMLElement && active !== document.body && active.isConnected;
    if (!led && opener.current?.isConnected) opener.current.focus();
    opener.current = null;
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content
          role={role}
          className={['modal', className].filter(Boolean).join(' ')}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={onCloseAutoFocus}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="modal-title">{title}</Dialog.Title>
          {description && <Dialog.Description className="muted">{description}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
