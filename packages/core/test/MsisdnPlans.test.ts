import { Result } from "effect"
import * as fc from "fast-check"
import parsePhoneNumber from "libphonenumber-js/max"
import { afterEach, describe, expect, it } from "vitest"
import * as NumberingPlans from "../src/internal/numberingPlans.ts"
import * as PlanSwitch from "../src/internal/planSwitch.ts"
import * as Country from "../src/Country.ts"
import * as Msisdn from "../src/Msisdn.ts"
import { decorate, exampleNumbers, forms, policyRow } from "./arbitraries.ts"

/** The whole reading (number, parts, rule, notes) or the problem, as comparable data. */
const reading = (text: string, options: Msisdn.Options, compiled: boolean): unknown => {
  PlanSwitch.settings.compiled = compiled
  try {
    // Cells read as the import reads them (names too).
    const result = Msisdn.normalize(text, { readCountry: Country.lookup, ...options })
    return Result.isSuccess(result) ? result.success : result.failure.problem
  } finally {
    PlanSwitch.settings.compiled = true
  }
}

const same = (text: string, options: Msisdn.Options): void => {
  expect({ text, options, reading: reading(text, options, true) }).toEqual({ text, options, reading: reading(text, options, false) })
}

/** Damage done to a written number: a digit dropped, added, changed, or two swapped. */
const damaged = (text: string): fc.Arbitrary<string> =>
  fc.tuple(fc.nat({ max: Math.max(0, text.length - 1) }), fc.constantFrom("drop", "add", "change", "swap"), fc.nat({ max: 9 })).map(
    ([at, how, digit]) => {
      const d = String(digit)
      switch (how) {
        case "drop":
          return text.slice(0, at) + text.slice(at + 1)
        case "add":
          return text.slice(0, at) + d + text.slice(at)
        case "change":
          return text.slice(0, at) + d + text.slice(at + 1)
        default:
          return text.slice(0, at) + (text[at + 1] ?? "") + (text[at] ?? "") + text.slice(at + 2)
      }
    }
  )

const cells = fc.constantFrom("", "GB", "US", "DE", "IN", "BR", "KE", "RU", "IT", "HU", "MX", "AR", "United Kingdom", "+44", "Narnia")

afterEach(() => {
  PlanSwitch.settings.compiled = true
})

describe("Msisdn through the compiled numbering plans", () => {
  it("reads every policy row exactly as libphonenumber-js alone does (number, parts, rule, notes)", () => {
    fc.assert(
      fc.property(policyRow, (row) => same(row.text, { country: row.cell, defaultCountry: row.defaultCountry })),
      { numRuns: 3000 }
    )
  })

  it("refuses damaged and invalid numbers with the same problem as libphonenumber-js alone", () => {
    const example = fc.constantFrom(...exampleNumbers).chain((e) => fc.constantFrom(...forms(e)).map((form) => ({ e, form })))
    fc.assert(
      fc.property(
        example.chain(({ e, form }) => damaged(form.text).chain((text) => decorate({ ...form, text })).map((text) => ({ e, text }))),
        cells,
        fc.constantFrom(undefined, "GB", "US", "IN"),
        ({ e, text }, cell, defaultCountry) => {
          same(text, { country: cell, defaultCountry })
          same(text, { country: e.country, defaultCountry })
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("agrees on every country's example in every form with its own code as the cell (exhaustive)", () => {
    for (const e of exampleNumbers) {
      for (const form of forms(e)) {
        same(form.text, { country: e.country })
        same(form.text, { country: "", defaultCountry: "GB" })
      }
    }
  })
})

describe("numberingPlans.nationalFormatDigits", () => {
  it("shows the digits of libphonenumber's national format for every country's example and its neighbours", () => {
    fc.assert(
      fc.property(fc.constantFrom(...exampleNumbers), fc.integer({ min: -50, max: 50 }), (example, delta) => {
        const e164 = String(BigInt(example.e164) + BigInt(delta))
        const number = parsePhoneNumber("+" + e164, { extract: false })
        if (number === undefined || !number.isValid()) return
        expect({ e164, digits: NumberingPlans.nationalFormatDigits(number.country, number.countryCallingCode, number.nationalNumber) })
          .toEqual({ e164, digits: number.formatNational().replace(/[^0-9]/g, "") })
      }),
      { numRuns: 2000 }
    )
  })
})
