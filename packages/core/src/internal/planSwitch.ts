/**
 * Whether `Msisdn` reads numbers through the compiled numbering plans (with libphonenumber-js as the fallback) or
 * through libphonenumber-js alone: always the former, except in the test that proves the two give the same answers.
 */

/** Mutable on purpose, for that differential test only; production code never writes it. */
export const settings: { compiled: boolean } = { compiled: true }
