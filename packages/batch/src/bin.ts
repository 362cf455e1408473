#!/usr/bin/env node
/**
 * The `smsbook` executable. It installs the phone-number regex cache first, then loads the
 * command line: nothing may load libphonenumber-js before the swap is in place.
 */
import * as ServeHeap from "@smsbook/http/ServeHeap"
import * as PhoneRegexCache from "./internal/phoneRegexCache.ts"

// `smsbook serve`: V8's heap sized for serving before the command line loads and grows it.
if (process.argv[2] === "serve") ServeHeap.limit()
PhoneRegexCache.register()
const { main } = await import("./Main.ts")
main(process.argv.slice(2))
