/**
 * Blank text as the rules count it: white space and invisible characters (a zero-width space, a direction mark, a
 * byte-order mark, and the default-ignorable rest: a Hangul filler, a grapheme joiner, a variation selector), which no
 * handset shows and no person can tell apart.
 */
// Default_Ignorable beside Cf: U+3164 HANGUL FILLER is a letter to Unicode, yet shows nothing (the usual invisible name).
const blankText = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u
const blankCharacter = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]$/u

/** Whether `text` is empty or holds only blanks. */
export const isBlank = (text: string): boolean => blankText.test(text)

/** Whether `char` (one code point) is a blank. */
export const isBlankCharacter = (char: string): boolean => blankCharacter.test(char)
