/**
 * What a text costs before it is sent: the prefixed text, the budget, the encoding, the SMS parts,
 * and the characters that force UCS-2 with the GSM look-alikes to use instead.
 */
import { Sms } from "@smsbook/core"

export interface Inspection {
  readonly short_name: string
  readonly text: string
  readonly prefixed: string
  readonly budget: number
  readonly length: number
  readonly fits: boolean
  readonly encoding: Sms.Encoding
  readonly units: number
  readonly segments: number
  readonly parts: ReadonlyArray<string>
  readonly ucs2_characters: ReadonlyArray<Sms.Ucs2Character>
  /** The text with every look-alike applied, what it would cost, and whether it fits the budget (a look-alike may be longer). */
  readonly gsm_safe?: {
    readonly text: string
    readonly encoding: Sms.Encoding
    readonly segments: number
    readonly length: number
    readonly fits: boolean
  }
}

/** Everything `inspect` reports about `text` sent under `shortName`. */
export const inspect = (shortName: string, text: string): Inspection => {
  const analysis = Sms.analyzePrefixed(shortName, text)
  const ucs2 = Sms.ucs2Characters(Sms.prefix(shortName, text))
  const safeText = Sms.gsmSafe(text)
  const safe = Sms.analyzePrefixed(shortName, safeText)
  const safeLength = Sms.characterCount(safeText)
  return {
    short_name: shortName,
    text,
    prefixed: Sms.prefix(shortName, text),
    budget: Sms.budget(shortName),
    length: Sms.characterCount(text),
    fits: Sms.characterCount(text) <= Sms.budget(shortName),
    encoding: analysis.encoding,
    units: analysis.units,
    segments: analysis.segments,
    parts: analysis.parts,
    ucs2_characters: ucs2,
    ...(ucs2.length === 0 ? {} : {
      gsm_safe: { text: safeText, encoding: safe.encoding, segments: safe.segments, length: safeLength, fits: safeLength <= Sms.budget(shortName) }
    })
  }
}
