import type { LucideIcon } from 'lucide-react';

/**
 * A Lucide icon beside words: decoration only (hidden from assistive tech), so a control's accessible
 * name stays its words. Sized to the text around it.
 */
export function Icon({ icon: Glyph, size = 16, className }: { icon: LucideIcon; size?: number; className?: string }) {
  return <Glyph size={size} aria-hidden="true" focusable="false" className={`icon${className ? ` ${className}` : ''}`} />;
}
