import { useRef } from 'react';
import { FileUp } from 'lucide-react';
import { Icon } from './Icon';

export interface FilePickerButtonProps {
  /** The button's text (its accessible name). */
  label: string;
  /** File types offered, as `<input accept>` takes them (`.mcpb`, `.zip`). */
  accept: string;
  onFile(file: File): void;
  disabled?: boolean;
  className?: string;
}

/**
 * A button that opens the system's file picker (the browser's in web mode, the native one in the app)
 * and hands over the file chosen. The file input itself stays hidden and out of the tab order.
 */
export function FilePickerButton({ label, accept, onFile, disabled, className = 'secondary' }: FilePickerButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        <Icon icon={FileUp} />
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
