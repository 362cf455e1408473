import * as fc from "fast-check"
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max"
import { describe, expect, it } from "vitest"
import * as Country from "../src/Country.ts"
import * as Msisdn from "../src/Msisdn.ts"

/** Cells as people write codes: alpha-2 in any case with stray separators, calling codes with or without `+`. */
const codeCell = fc.oneof(
  fc.tuple(fc.constantFrom(...getCountries()), fc.constantFrom("", " ", ".", "-"), fc.boolean()).map(([code, sep, lower]) =>
    (lower ? code.toLowerCase() : code).split("").join(sep)
  ),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.constantFrom("", "+", " +", "+ ")).map(([code, plus]) => plus + String(code))
)

const anyCell = fc.oneof(codeCell, fc.string({ maxLength: 6 }), fc.constantFrom("UK", "GBR", "United Kingdom", "Narnia"))

describe("Country.lookup and the rules' own code reading", () => {
  it("names only extend the codes: wherever Msisdn.codes reads a country, Country.lookup reads the same", () => {
    fc.assert(
      fc.property(anyCell, (cell) => {
        const code = Msisdn.codes(cell)
        if (code !== undefined) expect(Country.lookup(cell)).toBe(code)
      }),
      { numRuns: 2000 }
    )
  })

  it("every country's alpha-2 code and calling code are read by both", () => {
    for (const country of getCountries()) {
      expect(Msisdn.codes(country.toLowerCase())).toBe(country)
      expect(Country.lookup(country)).toBe(country)
      const main = Msisdn.codes("+" + getCountryCallingCode(country))
      expect(main === undefined ? undefined : getCountryCallingCode(main)).toBe(getCountryCallingCode(country))
      expect(Country.lookup("+" + getCountryCallingCode(country))).toBe(main)
    }
  })

  it.each([
    ["United Kingdom", "GB"],
    ["UK", "GB"],
    ["GBR", "GB"],
    ["Deutschland", "DE"],
    ["Côte d’Ivoire", "CI"]
  ])("%j is a name or alpha-3 code: Country.lookup reads it as %s, the rules alone do not", (cell, country) => {
    expect(Country.lookup(cell)).toBe(country)
    expect(Msisdn.codes(cell)).toBeUndefined()
  })

  it.each(["", "XX", "999", "800", "4 4", "Narnia"])("%j names no country for either", (cell) => {
    expect(Msisdn.codes(cell)).toBeUndefined()
    expect(Country.lookup(cell)).toBeUndefined()
  })
})

describe("the compiled country data", () => {
  it("is what scripts/countryNames.ts renders from the installed i18n-iso-countries (run it after an update)", async () => {
    const fs = await import("node:fs")
    const CountryNames = await import("../../../scripts/countryNames.ts")
    expect(fs.readFileSync(CountryNames.target, "utf8")).toBe(CountryNames.render())
  })

  it("reads every alias (the UK's nations, informal names, ISO 3166's long forms) as its country, in any case or spacing", () => {
    for (const [name, country] of Country.aliases) {
      expect(Country.lookup(name)).toBe(country)
      expect(Country.lookup(`  ${name.toUpperCase()} `)).toBe(country)
    }
  })

  it("examples: alpha-3 codes and English short forms read as their country", () => {
    for (const [cell, country] of [["GBR", "GB"], ["deu", "DE"], ["UK", "GB"], ["USA", "US"], ["UAE", "AE"], ["Great Britain", "GB"]] as const) {
      expect(Country.lookup(cell)).toBe(country)
    }
  })

  it("law: a flag, a dialled calling code, an article and a country picker's value read as the country they name", () => {
    const countries = getCountries().filter((country) => Country.lookup(country) === country)
    fc.assert(fc.property(fc.constantFrom(...countries), fc.constantFrom("en", "fr", "de"), (country, locale) => {
      const name = new Intl.DisplayNames([locale], { type: "region" }).of(country) ?? country
      const code = Country.callingCode(country)
      const flag = [...country].map((letter) => String.fromCodePoint(0x1f1e6 + letter.charCodeAt(0) - 65)).join("")
      expect(Country.lookup(flag)).toBe(country)
      // Where the name reads alone, so do the picker's forms of it (a name with brackets, commas or dashes of its own,
      // such as `Saint-Martin (partie néerlandaise)` or `Congo - Kinshasa`, splits into names of other countries).
      if (Country.lookup(name) !== country || /[(),]| - /.test(name)) return
      for (const cell of [`${name} (+${code})`, `+${code} ${name}`, `${country} - ${name}`, `${name} (${country})`, `The ${name}`, `${name}, The`]) {
        expect([cell, Country.lookup(cell)]).toEqual([cell, country])
      }
      // A calling code that is not the named country's names nothing.
      expect(Country.lookup(`${name} (+${code === "999" ? "1" : "999"})`)).toBeUndefined()
    }), { numRuns: 1000 })
    expect(Country.lookup("0044")).toBe("GB")
    expect(Country.lookup("Canada (+1)")).toBe("CA")
    // A city and a US state is no picker's value; a territory named with its state's name is the territory.
    for (const cell of ["Denver, CO", "Wilmington, DE", "Columbus, IN", "Virgin Islands"]) expect([cell, Country.lookup(cell)]).toEqual([cell, undefined])
    for (const [cell, country] of [["Virgin Islands (U.K.)", "VG"], ["Congo (Democratic Republic)", "CD"], ["Congo, Dem. Rep.", "CD"]] as const) {
      expect([cell, Country.lookup(cell)]).toEqual([cell, country])
    }
  })

  it("what a spreadsheet writes for no value is no country: N/A is not Namibia (NA is); other languages' abbreviations are no names", () => {
    for (const cell of ["N/A", "n/a", "#N/A", "n.a.", "N / A"]) expect([cell, Country.lookup(cell)]).toEqual([cell, undefined])
    for (const cell of ["N/A", "#N/A", "n.a."]) expect([cell, Country.isNotAvailable(cell)]).toEqual([cell, true])
    // A placeholder is no country, and no blank either: beside a national number, the default country would be a guess.
    for (const cell of ["NA", "Namibia", "-", "?", "Unknown"]) expect([cell, Country.isNotAvailable(cell)]).toEqual([cell, false])
    expect(Country.lookup("NA")).toBe("NA")
    // French `É.-U.` (the United States) once read `EU`; short names of other scripts and languages are names.
    expect(Country.lookup("EU")).toBeUndefined()
    for (const [cell, country] of [["美国", "US"], ["英国", "GB"], ["США", "US"], ["EUA", "US"], ["VS", "US"], ["ドイツ", "DE"]] as const) {
      expect([cell, Country.lookup(cell)]).toEqual([cell, country])
    }
  })

  it("a name two countries claim at one level reads as neither (Korea); Congo is ISO 3166's name of the Republic of the Congo", () => {
    expect(Country.lookup("Korea")).toBeUndefined()
    expect(Country.lookup("Congo")).toBe("CG")
    expect(Country.lookup("Congo, The Democratic Republic of the")).toBe("CD")
  })
})
