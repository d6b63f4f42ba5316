import * as Tooltip from '@radix-ui/react-tooltip';
import { CircleHelp } from 'lucide-react';
import type { ReactNode } from 'react';
import './help-tip.css';

/**
 * The longer explanation of a field, behind a "?" button beside its label: shown on hover and on
 * keyboard focus (the button is in the tab order), so the form itself keeps one short line per field.
 */
export function HelpTip({ about, children }: { about: string; children: ReactNode }) {
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button type="button" className="help-tip" aria-label={`About ${about}`}>
            <CircleHelp size={15} aria-hidden="true" focusable="false" />
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="help-tip-content" side="top" align="start" sideOffset={4} collisionPadding={8}>
            {children}
            <Tooltip.Arrow className="help-tip-arrow" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
