/**
 * Numbering plans compiled once, per region on first use, from libphonenumber-js's "max" metadata (its data, read as
 * data): calling code, trunk prefix, validity and type of a written number on the hot path, with the library's answers.
 *
 * Every operation answers only the common case — ASCII (or full-width, Arabic-Indic, Persian) digits, the separators
 * ` -.()/`, an optional leading `+` — and returns `undefined` ("don't know") for anything else, so the caller falls back
 * to libphonenumber-js itself. What it does answer equals `parsePhoneNumber(text, { defaultCountry, extract: false })`
 * of libphonenumber-js/max followed by `isValid()`, `getType()` and `country` (held by a differential property test).
 * Over 400 lines on purpose: one compiler of the metadata, whose operations share its per-region plans.
 */
import metadata from "libphonenumber-js/max/metadata"

/** A number's type, in libphonenumber's names. */
export type NumberType =
  | "FIXED_LINE"
  | "MOBILE"
  | "FIXED_LINE_OR_MOBILE"
  | "TOLL_FREE"
  | "PREMIUM_RATE"
  | "SHARED_COST"
  | "VOIP"
  | "PERSONAL_NUMBER"
  | "PAGER"
  | "UAN"
  | "VOICEMAIL"

/**
 * Where the calling code came from, as libphonenumber records it: a `+`, an international prefix (`00`, `011`…),
 * bare digits starting with the default region's calling code, or none (the national reading with the default region).
 */
export type Via = "plus" | "idd" | "calling-code-digits" | "national"

/** A written number read as one valid number. */
export interface Valid {
  readonly _tag: "Valid"
  /** E.164 digits without `+`: calling code then national number. */
  readonly e164: string
  readonly callingCode: string
  readonly nationalNumber: string
  /** The region libphonenumber assigns (for a shared calling code, the first whose plan takes the number). */
  readonly region: string | undefined
  readonly type: NumberType
  readonly via: Via
}

/**
 * A written number that is no valid number. `reason` is libphonenumber's: `INVALID_COUNTRY` (no calling code and no
 * default region, or an unknown calling code), `TOO_SHORT`/`TOO_LONG` (parse errors), `INVALID` (parsed, not valid).
 */
export interface Invalid {
  readonly _tag: "Invalid"
  readonly reason: "INVALID_COUNTRY" | "TOO_SHORT" | "TOO_LONG" | "INVALID"
  /** What was parsed, when it got that far (reason `INVALID`). */
  readonly callingCode?: string
  readonly nationalNumber?: string
  readonly region?: string | undefined
  readonly via?: Via
}

/** The answer for a written number, or `undefined` when the compiled plans do not know (fall back to the library). */
export type Answer = Valid | Invalid | undefined

/** The trunk (national) prefix of a region, as the metadata states it. */
export interface Trunk {
  /** The prefix written before national numbers (`"0"`, `"1"`, `"8"`, `"06"`), if the region has one. */
  readonly prefix: string | undefined
  /** The pattern of what is stripped before a national number when parsing (may capture a carrier code). */
  readonly forParsing: string | undefined
  /** The replacement for the stripped part, where the metadata rewrites rather than strips (e.g. AR, MX). */
  readonly transformRule: string | undefined
}

// ---------------------------------------------------------------------------------------------
// Compiled plans

interface TypePlan {
  /** `undefined` where the metadata has the type with an empty pattern (it then matches nothing). */
  readonly pattern: RegExp | undefined
  readonly lengths: ReadonlyArray<number>
}

interface Plan {
  readonly region: string
  readonly callingCode: string
  readonly idd: RegExp | undefined
  readonly national: RegExp
  readonly lengths: ReadonlyArray<number> | undefined
  readonly trunk: Trunk
  readonly trunkForParsing: RegExp | undefined
  readonly leadingDigits: RegExp | undefined
  /** Indexed as the metadata stores them: fixed line, mobile, toll free, premium, personal, voicemail, UAN, pager, VoIP, shared cost. */
  readonly types: ReadonlyArray<TypePlan | undefined>
}

const fixedLine = 0
const mobile = 1
/** The other types in the order libphonenumber tries them, with their index in the metadata. */
const otherTypes: ReadonlyArray<readonly [NumberType, number]> = [
  ["MOBILE", 1],
  ["PREMIUM_RATE", 3],
  ["TOLL_FREE", 2],
  ["SHARED_COST", 9],
  ["VOIP", 8],
  ["PERSONAL_NUMBER", 4],
  ["PAGER", 7],
  ["UAN", 6],
  ["VOICEMAIL", 5]
]

const text = (value: unknown): string | undefined => typeof value === "string" && value !== "" ? value : undefined

const numbers = (value: unknown): ReadonlyArray<number> | undefined =>
  Array.isArray(value) && value.length > 0 && value.every((n) => typeof n === "number") ? value.map(Number) : undefined

const typePlan = (value: unknown, general: ReadonlyArray<number> | undefined): TypePlan | undefined => {
  if (!Array.isArray(value)) return undefined
  const source: unknown = value[0]
  return {
    pattern: typeof source === "string" && source !== "" ? new RegExp(`^(?:${source})$`) : undefined,
    lengths: numbers(value[1]) ?? general ?? []
  }
}

const compile = (region: string, raw: ReadonlyArray<unknown>): Plan | undefined => {
  const callingCode = text(raw[0])
  const national = text(raw[2])
  if (callingCode === undefined || national === undefined) return undefined
  const lengths = numbers(raw[3])
  const prefix = text(raw[5])
  const forParsing = text(raw[7]) ?? prefix
  const idd = text(raw[1])
  const leading = text(raw[10])
  const rawTypes: unknown = raw[11]
  const types = Array.isArray(rawTypes) ? rawTypes.map((t) => typePlan(t, lengths)) : []
  return {
    region,
    callingCode,
    idd: idd === undefined ? undefined : new RegExp(`^(?:${idd})`),
    national: new RegExp(`^(?:${national})$`),
    lengths,
    trunk: { prefix, forParsing, transformRule: text(raw[8]) },
    trunkForParsing: forParsing === undefined ? undefined : new RegExp(`^(?:${forParsing})`),
    leadingDigits: leading === undefined ? undefined : new RegExp(`^(?:${leading})`),
    types
  }
}

const regionsByCallingCode: Readonly<Record<string, ReadonlyArray<string> | undefined>> = metadata.country_calling_codes
const rawPlans: Readonly<Record<string, ReadonlyArray<unknown> | undefined>> = metadata.countries
const nonGeographic: Readonly<Record<string, unknown>> = metadata.nonGeographic
const plans = new Map<string, Plan | undefined>()

/** The compiled plan of a region (ISO 3166 alpha-2, upper case), compiled on first use. */
const planOf = (region: string): Plan | undefined => {
  if (plans.has(region)) return plans.get(region)
  const raw = Object.hasOwn(rawPlans, region) ? rawPlans[region] : undefined
  const plan = raw === undefined ? undefined : compile(region, raw)
  plans.set(region, plan)
  return plan
}

/** The regions of a calling code, main region first; `undefined` for an unknown or non-geographic code. */
const regionsOf = (callingCode: string): ReadonlyArray<string> | undefined => {
  const regions = Object.hasOwn(regionsByCallingCode, callingCode) ? regionsByCallingCode[callingCode] : undefined
  return regions === undefined || regions.length === 0 || regions[0] === "001" ? undefined : regions
}

// ---------------------------------------------------------------------------------------------
// The steps of a reading

const typeMatches = (plan: Plan, index: number, nationalNumber: string): boolean => {
  const type = plan.types[index]
  return type !== undefined && type.pattern !== undefined && type.lengths.includes(nationalNumber.length) &&
    type.pattern.test(nationalNumber)
}

/**
 * The last answer of {@link typeIn}: a reading asks it up to three times for the same number and plan (stripping the
 * trunk prefix, finding the region of a shared calling code, then the type), and its patterns are most of a reading's cost.
 */
let lastPlan: Plan | undefined
let lastNumber = ""
let lastType: NumberType | undefined

/** The type of a national significant number in a plan, or `undefined` when the plan does not take it. */
const typeIn = (plan: Plan, nationalNumber: string): NumberType | undefined => {
  if (plan !== lastPlan || nationalNumber !== lastNumber) {
    lastPlan = plan
    lastNumber = nationalNumber
    lastType = typeOf(plan, nationalNumber)
  }
  return lastType
}

const typeOf = (plan: Plan, nationalNumber: string): NumberType | undefined => {
  if (!plan.national.test(nationalNumber)) return undefined
  if (typeMatches(plan, fixedLine, nationalNumber)) {
    const mobileType = plan.types[mobile]
    return mobileType === undefined || mobileType.pattern === undefined || typeMatches(plan, mobile, nationalNumber)
      ? "FIXED_LINE_OR_MOBILE"
      : "FIXED_LINE"
  }
  for (const [type, index] of otherTypes) if (typeMatches(plan, index, nationalNumber)) return type
  return undefined
}

/** Whether a national number is longer than any the plan allows (libphonenumber's `TOO_LONG`). */
const isTooLong = (plan: Plan, nationalNumber: string): boolean => {
  const lengths = plan.lengths
  return lengths !== undefined && (lengths[lengths.length - 1] ?? 0) < nationalNumber.length
}

/** Whether a national number is shorter than the plan allows or between its lengths (`TOO_SHORT`, `INVALID_LENGTH`). */
const isShortOrBetween = (plan: Plan, nationalNumber: string): boolean => {
  const lengths = plan.lengths
  if (lengths === undefined) return false
  const length = nationalNumber.length
  return length < (lengths[0] ?? 0) || (!isTooLong(plan, nationalNumber) && !lengths.includes(length))
}

/** The region of a calling code a national number belongs to: the first whose leading digits or plan take it. */
const regionAmong = (regions: ReadonlyArray<string>, nationalNumber: string): string | undefined => {
  if (regions.length === 1) return regions[0]
  for (const region of regions) {
    const plan = planOf(region)
    if (plan === undefined) continue
    if (plan.leadingDigits !== undefined) {
      if (nationalNumber !== "" && plan.leadingDigits.test(nationalNumber)) return region
    } else if (typeIn(plan, nationalNumber) !== undefined) return region
  }
  return undefined
}

/**
 * Strips the trunk prefix the way libphonenumber does: the metadata's pattern (or its rewrite rule), kept only when
 * the rest still fits the plan and is not too short for the region it then belongs to.
 */
const withoutTrunk = (plan: Plan, digits: string): string => {
  const pattern = plan.trunkForParsing
  if (pattern === undefined) return digits
  const match = pattern.exec(digits)
  if (match === null) return digits
  const lastGroup = match.length - 1
  const captured = lastGroup > 0 && (match[lastGroup] ?? "") !== ""
  const rule = plan.trunk.transformRule
  const stripped = rule !== undefined && captured ? digits.replace(pattern, rule) : digits.slice(match[0].length)
  if (stripped === digits) return digits
  if (plan.national.test(digits) && !plan.national.test(stripped)) return digits
  const regions = regionsByCallingCode[plan.callingCode]
  const region = regions === undefined ? undefined : regionAmong(regions, stripped)
  const lengthPlan = region === undefined ? plan : planOf(region) ?? plan
  return isShortOrBetween(lengthPlan, stripped) ? digits : stripped
}

/** Reads `number` (digits after the calling code, or national digits) in `plan`, which is the calling code's or the default region's. */
const finish = (plan: Plan, region: string | undefined, number: string, via: Via): Answer => {
  const regions = regionsOf(plan.callingCode)
  if (regions === undefined) return undefined
  const nationalNumber = withoutTrunk(plan, number)
  const exact = regionAmong(regions, nationalNumber) ?? region
  if (nationalNumber.length < 2) return { _tag: "Invalid", reason: "TOO_SHORT" }
  if (nationalNumber.length > 17) return { _tag: "Invalid", reason: "TOO_LONG" }
  const validity = exact === undefined ? planOf(regions[0] ?? "") : planOf(exact)
  if (validity === undefined || validity.types.length === 0) return undefined
  const type = typeIn(validity, nationalNumber)
  const callingCode = plan.callingCode
  return type === undefined
    ? { _tag: "Invalid", reason: "INVALID", callingCode, nationalNumber, region: exact, via }
    : { _tag: "Valid", e164: callingCode + nationalNumber, callingCode, nationalNumber, region: exact, type, via }
}

const invalidCountry: Invalid = { _tag: "Invalid", reason: "INVALID_COUNTRY" }

/** Digits that follow a `+` (or an international prefix): the calling code is the first 1–3 digits the metadata knows. */
const international = (digits: string, via: Via): Answer => {
  if (digits.startsWith("0")) return invalidCountry
  for (let length = 1; length <= 3 && length <= digits.length; length++) {
    const code = digits.slice(0, length)
    if (Object.hasOwn(nonGeographic, code)) return undefined
    if (!Object.hasOwn(regionsByCallingCode, code)) continue
    const main = regionsOf(code)?.[0]
    const plan = main === undefined ? undefined : planOf(main)
    if (plan === undefined) return undefined
    const rest = digits.slice(length)
    return rest === "" ? { _tag: "Invalid", reason: "TOO_SHORT" } : finish(plan, undefined, rest, via)
  }
  return invalidCountry
}

// ---------------------------------------------------------------------------------------------
// Written forms

/** The value of a digit libphonenumber reads (ASCII, full-width, Arabic-Indic, Persian), or -1. */
const digitValue = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0xff10 && code <= 0xff19) return code - 0xff10
  if (code >= 0x660 && code <= 0x669) return code - 0x660
  if (code >= 0x6f0 && code <= 0x6f9) return code - 0x6f0
  return -1
}

const isSeparator = (code: number): boolean =>
  code === 0x20 || code === 0x2d || code === 0x2e || code === 0x28 || code === 0x29 || code === 0x2f

/**
 * The digits of a written number in the common form and whether it starts with `+`; `undefined` for anything
 * else (letters, extensions, other punctuation, fewer than 3 digits, more than 250 characters).
 */
const digitsOf = (written: string): { readonly plus: boolean; readonly digits: string } | undefined => {
  if (written.length > 250) return undefined
  let plus = false
  let digits = ""
  for (let i = 0; i < written.length; i++) {
    const code = written.charCodeAt(i)
    const value = digitValue(code)
    if (value >= 0) digits += String.fromCharCode(0x30 + value)
    else if (i === 0 && (code === 0x2b || code === 0xff0b)) plus = true
    else if (!isSeparator(code)) return undefined
  }
  return digits.length < 3 ? undefined : { plus, digits }
}

// ---------------------------------------------------------------------------------------------
// Operations

/**
 * Reads a written number as libphonenumber-js/max does with `{ defaultCountry: region, extract: false }`: a `+`,
 * the region's international prefix, or bare digits starting with its calling code (where libphonenumber takes them
 * so) make it international; otherwise it is national, trunk prefix stripped per the metadata. `region` must be an
 * upper-case ISO 3166 alpha-2 code the metadata knows (else `undefined`).
 */
export const read = (written: string, region?: string): Answer => {
  const parsed = digitsOf(written)
  if (parsed === undefined) return undefined
  if (parsed.plus) return international(parsed.digits, "plus")
  if (region === undefined) return invalidCountry
  const plan = planOf(region)
  if (plan === undefined) return undefined
  return readDigits(plan, parsed.digits)
}

const readDigits = (plan: Plan, digits: string): Answer => {
  const idd = plan.idd?.exec(digits)
  if (idd !== null && idd !== undefined) {
    const rest = digits.slice(idd[0].length)
    if (rest !== "" && !rest.startsWith("0")) return international(rest, "idd")
  }
  if (digits.startsWith(plan.callingCode)) {
    const shorter = digits.slice(plan.callingCode.length)
    const withCode = withoutTrunk(plan, digits)
    if (
      (!plan.national.test(withCode) && plan.national.test(withoutTrunk(plan, shorter))) ||
      isTooLong(plan, withCode)
    ) {
      const main = regionsOf(plan.callingCode)?.[0]
      const mainPlan = main === undefined ? undefined : planOf(main)
      return mainPlan === undefined ? undefined : finish(mainPlan, undefined, shorter, "calling-code-digits")
    }
  }
  return finish(plan, plan.region, digits, "national")
}

/** Reads international digits (what follows a `+`, ASCII digits only): `read("+" + digits)`. */
export const readInternational = (digits: string): Answer => international(digits, "plus")

/**
 * The national reading alone: ASCII `digits` read with `region`'s trunk prefix and plans, never as international
 * (what libphonenumber answers for them when neither the international prefix nor the calling code is taken).
 */
export const readNational = (region: string, digits: string): Answer => {
  const plan = planOf(region)
  return plan === undefined ? undefined : finish(plan, region, digits, "national")
}

/**
 * The regions sharing `callingCode` whose plan takes `nationalNumber` as a valid number, main region first
 * (libphonenumber picks the first of them whose leading digits match, see {@link Valid.region}). `undefined` for an
 * unknown or non-geographic code.
 */
export const regionsAccepting = (callingCode: string, nationalNumber: string): ReadonlyArray<string> | undefined => {
  const regions = regionsOf(callingCode)
  if (regions === undefined) return undefined
  return regions.filter((region) => {
    const plan = planOf(region)
    return plan !== undefined && typeIn(plan, nationalNumber) !== undefined
  })
}

/** The calling code of a region (`"GB"` → `"44"`), or `undefined` for a region the metadata does not know. */
export const callingCodeOf = (region: string): string | undefined => planOf(region)?.callingCode

/** The trunk prefix of a region from the metadata, or `undefined` for a region it does not know. */
export const trunkOf = (region: string): Trunk | undefined => planOf(region)?.trunk

// ---------------------------------------------------------------------------------------------
// National formats

/** One of a region's national formats: when it applies, and what it writes. */
interface NationalFormat {
  /** The last (most detailed) of its leading-digit patterns, anchored at the start; `undefined`: any number. */
  readonly leading: RegExp | undefined
  readonly whole: RegExp
  /** The pattern as the replacement runs it (unanchored, as libphonenumber applies it). */
  readonly replace: RegExp
  /** The format with its first group written as the national prefix formatting rule says (the trunk prefix…). */
  readonly output: string
}

const formatsCache = new Map<string, ReadonlyArray<NationalFormat>>()

/** The metadata entry of the main region of a region's calling code: shared codes keep formats and rules there. */
const mainRaw = (raw: ReadonlyArray<unknown>): ReadonlyArray<unknown> | undefined => {
  const callingCode = text(raw[0])
  const main = callingCode === undefined ? undefined : regionsOf(callingCode)?.[0]
  return main === undefined || !Object.hasOwn(rawPlans, main) ? undefined : rawPlans[main]
}

const compileFormats = (region: string): ReadonlyArray<NationalFormat> => {
  const raw = Object.hasOwn(rawPlans, region) ? rawPlans[region] : undefined
  if (raw === undefined) return []
  const main = mainRaw(raw)
  const own: unknown = raw[4]
  const formats: unknown = Array.isArray(own) ? own : main?.[4]
  const regionRule = text(raw[6]) ?? text(main?.[6])
  if (!Array.isArray(formats)) return []
  return formats.flatMap((format: unknown) => {
    if (!Array.isArray(format)) return []
    const pattern = text(format[0])
    const written = text(format[1])
    if (pattern === undefined || written === undefined) return []
    const leadingPatterns: unknown = format[2]
    const last: unknown = Array.isArray(leadingPatterns) ? leadingPatterns[leadingPatterns.length - 1] : undefined
    const rule = text(format[3]) ?? regionRule
    return [{
      leading: typeof last === "string" ? new RegExp(`^(?:${last})`) : undefined,
      whole: new RegExp(`^(?:${pattern})$`),
      replace: new RegExp(pattern),
      output: rule === undefined ? written : written.replace(/(\$\d)/, rule)
    }]
  })
}

/**
 * The digits of a valid number's national format (what libphonenumber's `formatNational()` shows, separators
 * removed): the first of the region's formats whose leading digits and pattern take the national number, its first
 * group written with the national prefix formatting rule (`07400 123456`, `8 (912) …`); the national number itself
 * when no format takes it. `region` is the number's region; without one, the calling code's main region's formats
 * apply, as libphonenumber chooses them.
 */
export const nationalFormatDigits = (region: string | undefined, callingCode: string, nationalNumber: string): string => {
  const chosen = region ?? regionsOf(callingCode)?.[0]
  if (chosen === undefined) return nationalNumber
  return formatIn(chosen, nationalNumber)
}

const formatIn = (region: string, nationalNumber: string): string => {
  let formats = formatsCache.get(region)
  if (formats === undefined) {
    formats = compileFormats(region)
    formatsCache.set(region, formats)
  }
  for (const format of formats) {
    if (format.leading !== undefined && !format.leading.test(nationalNumber)) continue
    if (!format.whole.test(nationalNumber)) continue
    return nationalNumber.replace(format.replace, format.output).replace(/[^0-9]/g, "")
  }
  return nationalNumber
}

/** Regions compiled so far (start-up stays cheap: a region costs nothing until a number of it is read). */
export const compiledRegions = (): number => plans.size
