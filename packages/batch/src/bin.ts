#!/usr/bin/env node
/**
 * The `smsbook` executable. It installs the phone-number regex cache first, then loads the
 * command line: nothing may load libphonenumber-js before the swap is in place.
 */
import * as PhoneRegexCache from "./internal/phoneRegexCache.ts"

PhoneRegexCache.register()
const { main } = await import("./Main.ts")
main(process.argv.slice(2))
