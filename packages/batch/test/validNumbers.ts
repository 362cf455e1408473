/**
 * Valid numbers of every country and of every type its plan has (mobile, fixed line, toll free, UAN…), not only the
 * example mobile of each: bare MSISDN digits that read back as another valid number are found among landlines and
 * service numbers (an Italian landline, `3903005679`, also spells the mobile +39 390 300 5679).
 */
import { Msisdn } from "@smsbook/core"
import { Metadata, getCountries, getCountryCallingCode, getExampleNumber, isValidPhoneNumber, type CountryCode } from "libphonenumber-js/max"
import examples from "libphonenumber-js/examples.mobile.json" with { type: "json" }

/** A small seeded generator, so the pool is the same in every run. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

/**
 * Each region's example mobile and up to `perLength` random valid numbers of each national length its plan allows,
 * as MSISDNs (E.164 digits the schema takes). The random ones are drawn digit by digit and kept when libphonenumber
 * (max) calls them valid, so every type the plan has turns up in proportion to its share of the number space.
 */
export const validNumbers = (perLength = 3, tries = 40): Array<Msisdn.Msisdn> => {
  const random = seeded(20_261_127)
  const metadata = new Metadata()
  const found = new Set<Msisdn.Msisdn>()
  const keep = (e164: string) => {
    const parsed = Msisdn.parse(e164)
    if (parsed._tag === "Success") found.add(parsed.success)
  }
  for (const region of getCountries()) {
    const example = getExampleNumber(region, examples)
    if (example !== undefined) keep(example.number)
    metadata.selectNumberingPlan(region as CountryCode)
    const lengths = metadata.numberingPlan?.possibleLengths() ?? []
    const code = getCountryCallingCode(region)
    for (const length of lengths) {
      let kept = 0
      for (let attempt = 0; attempt < tries && kept < perLength; attempt++) {
        let national = ""
        for (let digit = 0; digit < length; digit++) national += String(Math.floor(random() * 10))
        if (isValidPhoneNumber(`+${code}${national}`)) {
          keep(`+${code}${national}`)
          kept++
        }
      }
    }
  }
  return [...found]
}
