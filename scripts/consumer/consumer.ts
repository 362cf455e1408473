/** A TypeScript service using the published types of every public package; type-checked, never run. */
import { ContactBook, Errors, HttpDate, Msisdn, Sms } from "@smsbook/core"
import * as SmsOnly from "@smsbook/core/Sms"
import { Store } from "@smsbook/store"
import { CarrierConfig, Dispatcher } from "@smsbook/carrier"
import { Client, Server } from "@smsbook/http"
import { Main } from "@smsbook/batch"
import { Effect } from "effect"

export function priceMessage(shortName: string, to: string, text: string) {
  const msisdn = Msisdn.parse(to, { defaultCountry: "GB" })
  if (msisdn._tag === "Failure") return { ok: false as const, code: Errors.info(msisdn.failure).code }
  const fits = Sms.checkBudget(shortName, text)
  if (fits._tag === "Failure") return { ok: false as const, code: Errors.info(fits.failure).code }
  const analysis: SmsOnly.Analysis = SmsOnly.analyzePrefixed(shortName, text)
  const number: string = msisdn.success
  return { ok: true as const, msisdn: number, encoding: analysis.encoding, segments: analysis.segments }
}

export const since = HttpDate.parse("Sat, 21 Nov 2026 10:15:00 GMT")
/** The store package's README example. */
export const firstPage = () =>
  Effect.runPromise(ContactBook.listContacts({ Limit: "10" }).pipe(Effect.provide(Store.layer("sqlite:./smsbook.db"))))
export const run: (args: ReadonlyArray<string>) => unknown = Main.program
/** The carrier and the HTTP client and server, as their READMEs use them. */
export const carrier = CarrierConfig.parse("smpp://system_id:password@127.0.0.1:2775?tps=50")
export const dispatch: typeof Dispatcher.run = Dispatcher.run
export const serve: typeof Server.serve = Server.serve
export const client = (baseUrl: string, apiKey: string) => Client.promise({ baseUrl, apiKey }).getContact("447400123456")
