/**
 * Blank text as the rules count it: white space and invisible format characters (a zero-width space, a direction
 * mark, a byte-order mark), which no handset shows and no person can tell apart.
 */
const blankText = /^[\s\p{Cf}]*$/u
const blankCharacter = /^[\s\p{Cf}]$/u

/** Whether `text` is empty or holds only blanks. */
export const isBlank = (text: string): boolean => blankText.test(text)

/** Whether `char` (one code point) is a blank. */
export const isBlankCharacter = (char: string): boolean => blankCharacter.test(char)
