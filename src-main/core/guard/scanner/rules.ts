/**
 * The scanner's local rules: patterns for text written to steer the model rather than inform it, for
 * ways out (links that carry data in their query, Markdown images that fetch a remote address when
 * shown), and for credentials. Each has a stable id (shown on the card and in tests) and a kind. They
 * run on normalised text (see normalize.ts), so "ig\u200Bnore" and "іgnore" read as "ignore".
 */
import type { ContentFlagKind } from '@contract';

export interface Rule {
  id: string;
  kind: ContentFlagKind;
  /** Global, so every match in a window is found. */
  pattern: RegExp;
  /** What the flag says, in words. */
  says: string;
}

const rule = (id: string, kind: ContentFlagKind, pattern: RegExp, says: string): Rule => ({ id, kind, pattern, says });

export const RULES: readonly Rule[] = [
  rule(
    'ignore-instructions',
    'instruction',
    /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|system|original|safety)?\s*(?:instructions?|prompts?|rules|guidelines|directions|context)\b/gi,
    'asks the model to set its instructions aside',
  ),
  rule(
    'hide-from-user',
    'instruction',
    /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention|show|reveal|alert|notify)\s+(?:this\s+to\s+)?(?:the\s+)?(?:user|human|person)\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human)\b/gi,
    'asks the model to keep something from the user',
  ),
  rule(
    'call-tool',
    'instruction',
    /\b(?:you\s+must|you\s+should|now|immediately|first|always)\s+(?:call|use|invoke|run|execute)\s+(?:the\s+)?(?:tool\s+|function\s+)?[`'"]?[A-Za-z][\w.-]*[`'"]?(?:\s+tool)?\b|\b(?:call|invoke|execute)\s+the\s+(?:tool|function)\s+[`'"]?[\w.-]+/gi,
    'tells the model to call a tool',
  ),
  rule(
    'role-override',
    'instruction',
    /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|new\s+instructions?\s*:|system\s+prompt\s*:|<\/?(?:system|instructions?|important)>|\[\s*system\s*\])/gi,
    'claims to speak as the system or give the model a new role',
  ),
  rule(
    'exfil-url',
    'exfiltration',
    /\bhttps?:\/\/[^\s"'<>)\]]+\?[^\s"'<>)\]]{120,}/gi,
    'a link carrying a long query string (data can leave in it)',
  ),
  rule(
    'markdown-image',
    'exfiltration',
    /!\[[^\]\n]{0,200}\]\(\s*<?https?:\/\/[^\s)>]+/gi,
    'a Markdown image from a remote address (shown, it fetches that address)',
  ),
  rule(
    'credential',
    'credential',
    /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|xox[abpors]-[A-Za-z0-9-]{10,}|-----BEGIN (?:RSA |EC |OPENSSH )?PRIVATE KEY-----)/g,
    'a credential (an API key or private key)',
  ),
];
