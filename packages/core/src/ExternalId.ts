/**
 * External id: the client's own identifier of a send, text of at most 40 characters, also the anti-spam key.
 * A number sent for it is accepted and becomes its decimal text.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { ExternalIdTooLong, InvalidField } from "./Errors.ts"
import { isBlank } from "./internal/blank.ts"
import * as Sms from "./Sms.ts"
import * as Wire from "./Wire.ts"

/** Most characters an id may have. Characters are Unicode code points: an emoji counts 1, as a person counts it. */
export const maxLength = 40

/** Code points of a text; a lone surrogate counts as one, as `[...text].length` does. */
export const length = Sms.characterCount

/** Whether a text is an id: not blank, at most {@link maxLength} code points. */
const isExternalId = (text: string): text is ExternalId => !isBlank(text) && length(text) <= maxLength

/**
 * An external id: text of at most 40 code points, not blank, kept exactly as sent (no trimming, no case folding: it
 * is compared as is by the anti-spam check).
 */
export const ExternalId = /* @__PURE__ */ Schema.toStandardSchemaV1(
  /* @__PURE__ */ Schema.String.check(
    /* @__PURE__ */ Schema.makeFilter(isExternalId, { expected: "an id of 1 to 40 characters, not blank" })
  ).pipe(/* @__PURE__ */ Schema.brand("ExternalId"))
)
export type ExternalId = typeof ExternalId.Type

const describe = (input: unknown): string => {
  if (input === null) return "null"
  if (Array.isArray(input)) return "an array"
  if (typeof input === "object") return "an object"
  return String(input)
}

/**
 * Reads an id as a client sends it.
 * - Text of 1 to 40 code points is kept unchanged; longer → `ExternalIdTooLong` with its length in code points.
 * - The empty text, or one of white space alone, is refused (`InvalidField`): a caller maps an absent id before
 *   calling, and `""` or `"   "` is not a useful anti-spam key.
 * - A number becomes its decimal text (`123` → `"123"`, `-5` → `"-5"`, `-0` → `"0"`) only if it is a safe
 *   integer: beyond 2^53 − 1 or with a fraction (`1e21`, `1.5`, `NaN`) the text would not be what the client
 *   meant, so it is refused (`InvalidField`) and the client should send the id as text.
 * - Anything else is refused (`InvalidField`).
 */
export const parse = (input: unknown): Result.Result<ExternalId, ExternalIdTooLong | InvalidField> => {
  if (typeof input === "number") {
    if (!Number.isSafeInteger(input)) {
      return Result.fail(
        new InvalidField({
          field: "id",
          value: String(input),
          reason: "a numeric id must be a safe integer (whole, within ±(2^53 − 1)) to be exact; send it as text"
        })
      )
    }
    return parse(String(input))
  }
  if (typeof input !== "string") {
    return Result.fail(new InvalidField({ field: "id", value: describe(input), reason: "must be text or a number" }))
  }
  if (isExternalId(input)) return Result.succeed(input)
  if (isBlank(input)) {
    return Result.fail(new InvalidField({ field: "id", value: input, reason: "must not be empty or blank; omit it instead" }))
  }
  return Result.fail(new ExternalIdTooLong({ value: input, length: length(input), max: maxLength }))
}

/** The id as the wire carries it: text or a number, read by {@link parse}; written as text. */
export const FromWire = /* @__PURE__ */ Wire.fromParser(ExternalId, parse)
