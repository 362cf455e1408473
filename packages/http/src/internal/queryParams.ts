/**
 * The query string of a request as the record core's `Query` reads (names in any case, checked there): a blank value
 * is a parameter not given, and a name repeated with values that do not agree (`Query.agree`: as read, for the
 * endpoint's parameters; unknown ones are ignored) is refused as ambiguous rather than one picked.
 */
import { InvalidParameter, Query } from "@smsbook/core"
import { Result } from "effect"

/** The parameters of `url` (a request path with its query string) to `endpoint`. */
export const fromUrl = (url: string, endpoint: Query.Endpoint): Result.Result<Query.Params, InvalidParameter> => {
  const queryStart = url.indexOf("?")
  // No prototype: a parameter named `constructor` or `__proto__` is a parameter, not a property every object has.
  const params: Record<string, string> = Object.create(null)
  if (queryStart === -1) return Result.succeed(params)
  for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) {
    if (Query.isBlank(value)) continue
    const seen = params[name]
    if (seen !== undefined) {
      if (Query.agree(endpoint, name, seen, value)) continue
      return Result.fail(new InvalidParameter({ parameter: name, value, reason: `given twice with different values (${seen})` }))
    }
    params[name] = value
  }
  return Result.succeed(params)
}
