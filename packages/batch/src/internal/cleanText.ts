/**
 * Control characters taken out of text read from files: NUL and the other C0 controls, DEL and C1 become a space,
 * so a file imports the same on SQLite and PostgreSQL (whose text cannot hold NUL) and no name carries a control.
 */

const controls = /[\u0000-\u001F\u007F-\u009F]/g

/** How many control characters `text` holds (what {@link replaceControls} replaces). */
export const countControls = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) count++
  }
  return count
}

/** `text` with every control character replaced by one space: same length, everything else untouched. */
export const replaceControls = (text: string): string => countControls(text) === 0 ? text : text.replace(controls, " ")
