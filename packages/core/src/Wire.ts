/**
 * Wire primitives that read tolerantly and write strictly.
 * The interface's samples disagree with its tables (DESIGN.md); these schemas absorb the differences once.
 */
// By module, not from the barrel: `Msisdn` loads this module, and the import's worker loads `Msisdn` (without the
// barrel, a worker takes ~12 MB less memory).
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { InvalidField } from "./Errors.ts"

const truthy = new Set<unknown>([true, 1, "1", "true", "TRUE", "True"])

/** A boolean read from `true/false/1/0/"1"/"0"/"true"/"false"`, written as `true/false`. */
export const Flag = Schema.Union([
  Schema.Boolean,
  Schema.Literals([0, 1, "0", "1", "true", "false", "TRUE", "FALSE", "True", "False"])
]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (value) => truthy.has(value),
      encode: (value) => value
    })
  )
)

/** Text, or a JSON number of `number` read as its decimal text. */
function textOrNumber(number: Schema.Codec<number>) {
  return Schema.Union([Schema.String, number]).pipe(
    Schema.decodeTo(
      Schema.String,
      SchemaTransformation.transform({
        decode: (value) => typeof value === "number" ? value.toFixed(0) : value,
        encode: (value) => value
      })
    )
  )
}

/**
 * Text that may arrive as a JSON number (ids, msisdns): a whole number becomes its decimal text. Only a safe integer:
 * `1.5`, `1e21` or 2^53 + 1 would not come back as the digits the client sent, so they are refused.
 */
export const Text = /* @__PURE__ */ textOrNumber(
  Schema.Int.annotate({ expected: "text, or a whole number within ±(2^53 − 1) (send a larger one as text)" })
)

/** A phone number in a request: {@link Text}, but a JSON number only when positive (`-447400123456` names no number). */
export const PhoneText = /* @__PURE__ */ textOrNumber(
  Schema.Int.check(Schema.isGreaterThan(0)).annotate({ expected: "text, or a positive whole number up to 2^53 − 1 (send a larger one as text)" })
)

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

// Arrays too (`tags.1`): Effect's `Predicate.isObject` is false for them.
const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>((node, key) => typeof node === "object" && node !== null ? Reflect.get(node, key) : undefined, input)

const describe = (value: unknown): string => {
  if (value === undefined) return ""
  if (typeof value === "string") return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch (error) {
    // Nested deeper than the stack allows (a body of `[[[[…` 5,000 deep), or not JSON at all (a BigInt, a cycle, from
    // a service calling the decoder): still a refusal that says so, never a crash.
    if (!(error instanceof RangeError)) return "a value that cannot be shown as JSON"
    return Array.isArray(value) ? "an array nested too deeply to show" : "an object nested too deeply to show"
  }
}

/**
 * Decodes untrusted input with `schema`; a failure names the first offending field and its value.
 * The one place where Schema's issue tree becomes smsbook's `InvalidField`.
 */
export const decoder = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<S["Type"], InvalidField> => {
    const decoded = Result.mapError(decode(input), (error) => {
      const first = formatIssue(error.issue).issues[0]
      const path = (first?.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)
      return new InvalidField({
        field: path.length === 0 ? "body" : path.map(String).join("."),
        value: describe(valueAt(input, path)),
        reason: first?.message ?? "invalid"
      })
    })
    if (Result.isFailure(decoded)) return decoded
    // Among the fields read (unknown keys are ignored, so they cannot carry one anywhere).
    const unstorable = unstorableAt(decoded.success)
    if (unstorable === undefined) return decoded
    const text = String(valueAt(decoded.success, unstorable))
    const shown = text.toWellFormed().replaceAll("\u0000", "\\u0000")
    return Result.fail(new InvalidField({
      field: unstorable.length === 0 ? "body" : unstorable.join("."),
      value: shown.length > 200 ? `${shown.slice(0, 200)}…` : shown,
      reason: text.includes("\u0000")
        ? "holds U+0000 (NUL), which no text field may: remove it"
        : "holds a lone surrogate: it is not valid Unicode"
    }))
  }
}

/**
 * The path of the first text in a decoded value that no store keeps as sent: one holding U+0000 (PostgreSQL refuses
 * it) or a lone surrogate (half of a UTF-16 pair: stores keep U+FFFD, so the answer would not be what is stored).
 */
const unstorableAt = (value: unknown, path: ReadonlyArray<string | number> = []): ReadonlyArray<string | number> | undefined => {
  if (typeof value === "string") return value.includes("\u0000") || !value.isWellFormed() ? path : undefined
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = unstorableAt(child, [...path, key])
    if (found !== undefined) return found
  }
  return undefined
}

/** The text of `input[key]` when `input` is an object that has it, for naming a refused field. */
export const field = (input: unknown, key: string): string | undefined => {
  if (!Predicate.isObject(input) || !Object.hasOwn(input, key)) return undefined
  return describe(Reflect.get(input, key))
}

/** A copy of `input` with key `from` renamed `to` (the interface's `misdn` spelling). */
export const renameKey = (input: unknown, from: string, to: string): unknown => {
  if (!Predicate.isObject(input) || !Object.hasOwn(input, from)) return input
  const { [from]: value, ...rest } = input
  return { ...rest, [to]: value }
}

/**
 * A wire schema for text that may arrive as a JSON number, decoded by one of smsbook's `Result`
 * parsers (the parser's error message becomes the schema issue) and written as text.
 */
export const fromParser = <T extends string>(
  to: Schema.Codec<T, string>,
  parse: (input: string | number) => Result.Result<T, { readonly message: string }>
) =>
  Schema.Union([Schema.String, Schema.Number]).pipe(
    Schema.decodeTo(to, {
      decode: SchemaGetter.transformEffect((input: string | number, options) => {
        const result = parse(input)
        return Result.isSuccess(result)
          ? Effect.succeed(result.success)
          : Effect.fail(new SchemaIssue.InvalidValue({ message: result.failure.message }, input, options))
      }),
      encode: SchemaGetter.passthroughSubtype<string | number, string>()
    })
  )
