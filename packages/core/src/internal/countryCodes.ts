/**
 * Country codes: the part of reading a country cell that needs no name tables — ISO 3166 alpha-2 codes and calling
 * codes, from libphonenumber's metadata alone — so the number rules read them without carrying country names.
 */
import { type CountryCode, isSupportedCountry } from "libphonenumber-js/max"
import metadata from "libphonenumber-js/max/metadata"

/**
 * A cell reduced to what tells countries apart: accents removed, lower case (`ß` as `ss`, as in capitals), letters and
 * digits only, so `"Côte d'Ivoire"`, `"COTE D IVOIRE"` and `"cote-divoire"` are one key, and `"+44"` is `"44"`.
 */
export const key = (text: string): string =>
  text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss").replace(/[^\p{L}\p{N}]/gu, "")

/** The main country of a calling code (`"44"` → GB, `"1"` → US, `"7"` → RU); non-geographic codes have none. */
export const ofCallingCode = (code: string): CountryCode | undefined => {
  const main = metadata.country_calling_codes[code]?.[0]
  return main !== undefined && isSupportedCountry(main) ? main : undefined
}

/** Whether a cell is written as a calling code (`44`, `+44`, ` + 1 `): 1 to 3 digits, nothing else but a `+`. */
export const isCallingCode = (cell: string, k: string = key(cell)): boolean =>
  /^[0-9]{1,3}$/.test(k) && /^\s*\+?\s*[0-9]{1,3}\s*$/.test(cell)

/** The country whose ISO 3166 alpha-2 code a key is (`"gb"` → GB), among those libphonenumber has a plan for. */
export const ofAlpha2 = (k: string): CountryCode | undefined => {
  const code = k.toUpperCase()
  return k.length === 2 && isSupportedCountry(code) ? code : undefined
}

/**
 * The country a cell names by a code, ignoring case, punctuation and spaces: an ISO 3166 alpha-2 code (`GB`, `gb`)
 * or a calling code (`44`, `+44`: the main country of the code); `undefined` for anything else.
 */
export const lookup = (cell: string): CountryCode | undefined => {
  const k = key(cell)
  return isCallingCode(cell, k) ? ofCallingCode(k) : ofAlpha2(k)
}
