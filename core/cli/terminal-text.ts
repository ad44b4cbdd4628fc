/**
 * Text from a file, a plugin or the engine made safe to print on a terminal. A playlist file is
 * anyone's: a title holding ESC sequences could recolour, retitle or rewrite the user's terminal
 * (and some terminals answer certain sequences with input of their own), and a line break or a
 * bidirectional override could make one message look like another. Each such character is shown
 * as its JSON-style escape (`\u001b`), the way the JSON reader already reports them.
 */

// C0 controls (line breaks and tabs included: one message is one line), DEL, C1 controls, the
// Unicode line separators and the bidirectional embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- control characters are what is escaped here
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escaped = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function terminalText(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

// The same, but a line break stays one: for whole messages of several lines.
// eslint-disable-next-line no-control-regex -- control characters are what is escaped here
const UNPRINTABLE_IN_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `terminalText` for a message of several lines: every line break is kept, everything else escaped alike. */
export function terminalLines(text: string): string {
  return text.replace(UNPRINTABLE_IN_LINES, escaped);
}
