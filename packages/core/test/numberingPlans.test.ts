import * as fc from "fast-check"
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  ParseError,
  parsePhoneNumberWithError
} from "libphonenumber-js/max"
import metadata from "libphonenumber-js/max/metadata"
import examples from "libphonenumber-js/mobile/examples"
import { describe, expect, it } from "vitest"
import * as NumberingPlans from "../src/internal/numberingPlans.ts"

// ---------------------------------------------------------------------------------------------
// The oracle: libphonenumber-js "max" itself

const viaOf = (source: unknown): NumberingPlans.Via => {
  switch (source) {
    case "FROM_NUMBER_WITH_PLUS_SIGN":
      return "plus"
    case "FROM_NUMBER_WITH_IDD":
      return "idd"
    case "FROM_NUMBER_WITHOUT_PLUS_SIGN":
      return "calling-code-digits"
    default:
      return "national"
  }
}

/** libphonenumber's answer in the compiled plans' shape (`NOT_A_NUMBER` where the plans must not answer). */
const oracle = (written: string, region: CountryCode | undefined): NumberingPlans.Answer | "NOT_A_NUMBER" => {
  try {
    const number = parsePhoneNumberWithError(
      written,
      region === undefined ? { extract: false } : { defaultCountry: region, extract: false }
    )
    // The library records where the calling code came from on a field it does not declare.
    const via = viaOf(Reflect.get(number, "__countryCallingCodeSource"))
    const type = number.getType()
    if (number.isValid() && type !== undefined) {
      return {
        _tag: "Valid",
        e164: number.number.slice(1),
        callingCode: number.countryCallingCode,
        nationalNumber: number.nationalNumber,
        region: number.country,
        type,
        via
      }
    }
    return {
      _tag: "Invalid",
      reason: "INVALID",
      callingCode: number.countryCallingCode,
      nationalNumber: number.nationalNumber,
      region: number.country,
      via
    }
  } catch (error) {
    if (!(error instanceof ParseError)) throw error
    if (error.message === "NOT_A_NUMBER") return "NOT_A_NUMBER"
    if (error.message === "INVALID_COUNTRY" || error.message === "TOO_SHORT" || error.message === "TOO_LONG") {
      return { _tag: "Invalid", reason: error.message }
    }
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Generators: every country's example number, mutated, in every written form

interface Example {
  readonly region: CountryCode
  readonly callingCode: string
  readonly national: string
}

const examplesOfEveryRegion: ReadonlyArray<Example> = getCountries().flatMap((region) => {
  const example = getExampleNumber(region, examples)
  return example === undefined ? [] : [{ region, callingCode: example.countryCallingCode, national: example.nationalNumber }]
})

/** A region's trunk prefix and a literal international prefix (its preferred one, or its pattern when that is literal). */
const prefixesOf = (region: CountryCode): { readonly trunk: string | undefined; readonly idd: string | undefined } => {
  // The metadata's array layout: [1] international prefix pattern, [5] trunk prefix, [12] preferred international prefix.
  const plan: ReadonlyArray<unknown> = metadata.countries[region] ?? []
  const literal = (value: unknown) => typeof value === "string" && /^[0-9]+$/.test(value) ? value : undefined
  return { trunk: literal(plan[5]), idd: literal(plan[12]) ?? literal(plan[1]) }
}

const digit = fc.integer({ min: 0, max: 9 }).map(String)

/** The national number as it may reach a file: intact, a digit changed, added or removed. */
const mutated = (national: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(national) },
    fc.tuple(fc.nat(national.length - 1), digit).map(([i, d]) => national.slice(0, i) + d + national.slice(i + 1)),
    fc.tuple(fc.nat(national.length), digit).map(([i, d]) => national.slice(0, i) + d + national.slice(i)),
    fc.nat(national.length - 1).map((i) => national.slice(0, i) + national.slice(i + 1)),
    fc.stringMatching(/^[0-9]{1,3}$/).map((tail) => national.slice(0, -tail.length) + tail)
  )

const forms = ["plus", "00", "idd", "trunk", "national", "bare", "bare-trunk", "plus-trunk"] as const
type Form = (typeof forms)[number]

/** The digits (with a leading `+` where the form has one) of a number in one written form. */
const writtenDigits = (example: Example, national: string, form: Form): string => {
  const { trunk, idd } = prefixesOf(example.region)
  switch (form) {
    case "plus":
      return `+${example.callingCode}${national}`
    case "00":
      return `00${example.callingCode}${national}`
    case "idd":
      return `${idd ?? "00"}${example.callingCode}${national}`
    case "trunk":
      return `${trunk ?? ""}${national}`
    case "national":
      return national
    case "bare":
      return `${example.callingCode}${national}`
    case "bare-trunk":
      return `${example.callingCode}${trunk ?? ""}${national}`
    case "plus-trunk":
      return `+${example.callingCode}${trunk ?? "0"}${national}`
  }
}

const separator = fc.constantFrom("", "", "", "", " ", "-", ".", "(", ")", "/", " - ")

/** Separators between the characters, as people and spreadsheets put them. */
const withSeparators = (text: string): fc.Arbitrary<string> =>
  fc.array(separator, { minLength: text.length, maxLength: text.length })
    .map((seps) => [...text].map((char, i) => (i === 0 ? "" : seps[i]) + char).join(""))

const digitSets = [0x30, 0xff10, 0x660, 0x6f0] as const
/** The digits written in one script: ASCII, full-width, Arabic-Indic or Persian. */
const inScript = (text: string, zero: number): string =>
  text.replace(/[0-9]/g, (d) => String.fromCharCode(zero + d.charCodeAt(0) - 0x30))

const regions = getCountries()

interface Case {
  readonly written: string
  readonly region: CountryCode | undefined
  readonly ascii: boolean
}

const writtenNumber: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(...examplesOfEveryRegion),
    fc.constantFrom(...forms),
    fc.oneof({ weight: 4, arbitrary: fc.constant(0x30) }, fc.constantFrom(...digitSets))
  )
  .chain(([example, form, zero]) =>
    fc.record({
      written: mutated(example.national)
        .map((national) => writtenDigits(example, national, form))
        .chain(withSeparators)
        .map((text) => inScript(text, zero)),
      region: fc.oneof(
        { weight: 3, arbitrary: fc.constant(example.region) },
        fc.constantFrom(...regions),
        fc.constant(undefined)
      ),
      ascii: fc.constant(zero === 0x30)
    })
  )

const property = { numRuns: 2_500, seed: 20261122 } as const

// ---------------------------------------------------------------------------------------------

describe("numberingPlans, start-up", () => {
  // First in the file: nothing has read a number yet.
  it("compiles a region only when a number of it is read", () => {
    expect(NumberingPlans.compiledRegions()).toBe(0)
    NumberingPlans.read("+52 55 1234 5678")
    expect(NumberingPlans.compiledRegions()).toBeGreaterThan(0)
    expect(NumberingPlans.compiledRegions()).toBeLessThanOrEqual(2)
  })
})

describe("numberingPlans, against libphonenumber-js max", () => {
  it("gives libphonenumber's answer whenever it answers, and answers nearly every plain-digit input", () => {
    let plain = 0
    let answered = 0
    fc.assert(
      fc.property(writtenNumber, ({ written, region, ascii }) => {
        const answer = NumberingPlans.read(written, region)
        if (ascii) {
          plain++
          if (answer !== undefined) answered++
        }
        if (answer !== undefined) expect(answer).toEqual(oracle(written, region))
      }),
      property
    )
    expect(plain).toBeGreaterThan(2_000)
    expect(answered / plain).toBeGreaterThanOrEqual(0.95)
  })

  it("reads international digits as libphonenumber reads them after a +", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...examplesOfEveryRegion).chain((example) =>
          mutated(example.national).map((national) => example.callingCode + national)
        ),
        (digits) => {
          const answer = NumberingPlans.readInternational(digits)
          if (answer !== undefined) expect(answer).toEqual(oracle(`+${digits}`, undefined))
        }
      ),
      property
    )
  })

  it("reads national digits as libphonenumber does when it takes them nationally", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...examplesOfEveryRegion).chain((example) =>
          fc.tuple(
            fc.constant(example.region),
            fc.constantFrom<Form>("trunk", "national").chain((form) =>
              mutated(example.national).map((national) => writtenDigits(example, national, form))
            )
          )
        ),
        ([region, digits]) => {
          const expected = oracle(digits, region)
          const national = NumberingPlans.readNational(region, digits)
          if (national === undefined || expected === "NOT_A_NUMBER" || expected === undefined) return
          if (expected.via === "national") expect(national).toEqual(expected)
        }
      ),
      property
    )
  })

  it("lists the regions of a calling code whose plan takes a national number", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...examplesOfEveryRegion).chain((example) =>
          fc.tuple(fc.constant(example.callingCode), mutated(example.national))
        ),
        ([callingCode, national]) => {
          const accepting = NumberingPlans.regionsAccepting(callingCode, national)
          if (accepting === undefined) return
          for (const region of regions) {
            if (getCountryCallingCode(region) !== callingCode) continue
            const number = parsePhoneNumberWithError(`+${callingCode}${national}`, { extract: false })
            // Where the library strips a trunk prefix it judges another national number: not this question.
            if (number.nationalNumber !== national) return
            number.country = region
            expect(accepting.includes(region)).toBe(number.isValid())
          }
        }
      ),
      { numRuns: 2_000, seed: 20261122 }
    )
  })
})

describe("numberingPlans, examples", () => {
  it("reads the forms of a GB mobile", () => {
    const gb = { _tag: "Valid", e164: "447400123456", callingCode: "44", nationalNumber: "7400123456", region: "GB", type: "MOBILE" }
    expect(NumberingPlans.read("+44 7400 123456")).toEqual({ ...gb, via: "plus" })
    expect(NumberingPlans.read("07400 123456", "GB")).toEqual({ ...gb, via: "national" })
    expect(NumberingPlans.read("7400123456", "GB")).toEqual({ ...gb, via: "national" })
    expect(NumberingPlans.read("00447400123456", "DE")).toEqual({ ...gb, via: "idd" })
    expect(NumberingPlans.read("447400123456", "GB")).toEqual({ ...gb, via: "calling-code-digits" })
    expect(NumberingPlans.read("＋４４７４００１２３４５６")).toEqual({ ...gb, via: "plus" })
  })

  it("refuses what is no number, and does not answer what it does not know", () => {
    expect(NumberingPlans.read("07700 900123", "GB")).toMatchObject({ _tag: "Invalid", reason: "INVALID" })
    expect(NumberingPlans.read("7400123456")).toEqual({ _tag: "Invalid", reason: "INVALID_COUNTRY" })
    expect(NumberingPlans.read("+999 123456")).toEqual({ _tag: "Invalid", reason: "INVALID_COUNTRY" })
    expect(NumberingPlans.read("020 7946 0018 ext. 123", "GB")).toBeUndefined()
    expect(NumberingPlans.read("1-800-FLOWERS", "US")).toBeUndefined()
    expect(NumberingPlans.read("+800 1234 5678")).toBeUndefined()
  })

  it("takes trunk prefixes from the metadata", () => {
    expect(NumberingPlans.trunkOf("GB")?.prefix).toBe("0")
    expect(NumberingPlans.trunkOf("RU")?.prefix).toBe("8")
    expect(NumberingPlans.trunkOf("HU")?.prefix).toBe("06")
    expect(NumberingPlans.trunkOf("US")?.prefix).toBe("1")
    expect(NumberingPlans.read("8 912 345 67 89", "RU")).toMatchObject({ _tag: "Valid", e164: "79123456789" })
    expect(NumberingPlans.read("1 201 555 0123", "US")).toMatchObject({ _tag: "Valid", e164: "12015550123" })
    expect(NumberingPlans.callingCodeOf("KE")).toBe("254")
  })
})
