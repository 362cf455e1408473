/**
 * What reading a carrier URL (`smpp://…`, `kannel://…`) shares across protocols: the URL, its scheme
 * and host, known parameters only, whole numbers and true/false flags, each failure an `InvalidField`.
 */
import { InvalidField } from "@smsbook/core"
import { Result } from "effect"

/** One carrier URL being read: every failure names the `carrier` field with the URL masked. */
export interface Reader {
  readonly invalid: (reason: string) => InvalidField
  /** The URL, which must have `scheme` (`"smpp:"`) and a host; `example` shows a good one when it is no URL. */
  readonly parse: (scheme: string, example: string) => Result.Result<URL, InvalidField>
  /** Whole number parameter `name` (its fallback when absent), at least `min`. */
  readonly integer: (params: URLSearchParams, name: string, fallback: number, min: number) => Result.Result<number, InvalidField>
  /** `true`/`false` parameter `name` (`true` when absent). */
  readonly flag: (params: URLSearchParams, name: string) => Result.Result<boolean, InvalidField>
  /** Its parameters, failing on the first one not in `known` (a typo must not pass silently). */
  readonly parameters: (parsed: URL, known: ReadonlySet<string>) => Result.Result<URLSearchParams, InvalidField>
}

/** A reader for `url`; `mask` hides its secrets (password, keys) in the failures. */
export const reader = (url: string, mask: (url: string) => string): Reader => {
  const invalid = (reason: string) => new InvalidField({ field: "carrier", value: mask(url), reason })
  return {
    invalid,
    parse: (scheme, example) => {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        return Result.fail(invalid(`is not a URL like ${example}`))
      }
      if (parsed.protocol !== scheme) return Result.fail(invalid(`scheme ${parsed.protocol} is not ${scheme}`))
      if (parsed.hostname === "") return Result.fail(invalid("names no host"))
      return Result.succeed(parsed)
    },
    integer: (params, name, fallback, min) => {
      const raw = params.get(name)
      if (raw === null) return Result.succeed(fallback)
      const value = Number(raw)
      return /^\d+$/.test(raw) && Number.isSafeInteger(value) && value >= min
        ? Result.succeed(value)
        : Result.fail(invalid(`parameter ${name}=${raw} must be a whole number ≥ ${min}`))
    },
    flag: (params, name) => {
      const raw = params.get(name) ?? "true"
      return raw === "true" || raw === "false"
        ? Result.succeed(raw === "true")
        : Result.fail(invalid(`parameter ${name}=${raw} must be true or false`))
    },
    parameters: (parsed, known) => {
      const params = parsed.searchParams
      for (const name of params.keys()) if (!known.has(name)) return Result.fail(invalid(`unknown parameter ${name}`))
      return Result.succeed(params)
    }
  }
}
