/**
 * `--default-country` read as an import's country cells are (`GB`, `GBR`, `United Kingdom`, `44`), checked once where
 * a command starts: a country that no number can be read in is a usage error, not a refusal of every national number.
 */
import { Country, InvalidParameter, Msisdn } from "@smsbook/core"
import { Result } from "effect"

export const check = (country: string): Result.Result<string, InvalidParameter> => {
  const code = Msisdn.callingCode(country, Country.lookup)
  const region = Result.isSuccess(code) ? Msisdn.regionFor(code.success) : code
  return Result.isSuccess(region)
    ? Result.succeed(country)
    : Result.fail(new InvalidParameter({ parameter: "--default-country", value: country, reason: region.failure.reason }))
}
