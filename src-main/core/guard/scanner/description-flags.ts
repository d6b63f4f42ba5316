/**
 * What the content scanner flags in a tool's title and description, scanned when the tools are listed
 * (and again when a server's list changes: a changed text is a new key). Descriptions repeat across
 * listings, turns and copies of one server, so each distinct text is scanned once (a bounded cache).
 */
import type { ContentFlag } from '@contract';
import type { ContentScanner } from './content-scanner';

/** Distinct texts kept; past this the oldest go (scanning one again costs well under a millisecond). */
const MAX_TEXTS = 5_000;

export class DescriptionFlags {
  private readonly byText = new Map<string, ContentFlag[]>();

  constructor(private readonly scanner: Pick<ContentScanner, 'scanShort'>) {}

  /** The flags of a tool's title and description (empty when clean or absent). */
  of(tool: { title?: string; description?: string }): ContentFlag[] {
    const text = [tool.title, tool.description].filter(Boolean).join('\n');
    if (!text) return [];
    let flags = this.byText.get(text);
    if (!flags) {
      flags = this.scanner.scanShort(text, { description: true });
      if (this.byText.size >= MAX_TEXTS) this.byText.delete(this.byText.keys().next().value!);
      this.byText.set(text, flags);
    }
    return flags;
  }
}
