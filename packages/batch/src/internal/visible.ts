/**
 * Text from data or files made safe for a terminal: control characters (C0, C1, ESC, DEL), bidi overrides,
 * isolates and marks, and line or paragraph separators shown as visible `\xNN` / `\uNNNN` escapes.
 */

/** The characters a terminal acts on instead of showing: they could retitle, recolour, reorder or hide text. */
const hostile = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g

const escape = (char: string): string => {
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
}

/**
 * `text` with every hostile character replaced by its escape; printable text (any script, emoji, a backslash)
 * is left as it is, so an ordinary line prints unchanged.
 */
export const show = (text: string): string => text.replace(hostile, escape)
