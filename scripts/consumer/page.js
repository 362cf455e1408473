/** The browser page's script: counts the segments of every text it is given and checks its budget, with the installed `@smsbook/core/Sms`. */
import { analyzePrefixed, checkBudget } from "@smsbook/core/Sms"

globalThis.countSegments = (shortName, texts) =>
  texts.map((text) => {
    const { encoding, units, segments } = analyzePrefixed(shortName, text)
    return { encoding, units, segments, fits: checkBudget(shortName, text)._tag === "Success" }
  })
