/**
 * Shared fast-check arbitraries of the carrier's tests: GSM-7 texts (extension characters
 * included), any UTF-16 text, and texts as core would split them.
 */
import { Sms } from "@smsbook/core"
import * as fc from "fast-check"

const gsmChars = [...Sms.gsmBasicTable.filter((char) => char !== "\u001B"), ...Sms.gsmExtensionTable.map(([, char]) => char)]

/** Texts of the GSM 03.38 alphabet, extension characters included. */
export const gsmText = (maxLength = 200) => fc.array(fc.constantFrom(...gsmChars), { maxLength }).map((chars) => chars.join(""))

/** Texts that force UCS-2: GSM characters mixed with others, emoji (surrogate pairs) included. */
export const ucs2Text = (maxLength = 160) =>
  fc.tuple(
    fc.array(fc.oneof(fc.constantFrom(...gsmChars), fc.constantFrom("é", "ç", "ж", "日", "😀", "👍🏽", "€", "’")), { maxLength }),
    fc.constantFrom("ж", "😀", "日")
  ).map(([chars, forced]) => chars.join("") + forced)

/** Any text an SMS may carry. */
export const smsText = fc.oneof(gsmText(), ucs2Text())
