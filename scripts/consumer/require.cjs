/** A CommonJS service loading the ESM build of @smsbook/core with `require()` (Node ≥ 22.12). */
const core = require("@smsbook/core")
const sms = require("@smsbook/core/Sms")
const { check } = require("./checks.js")

console.log(`require ${process.version}: ${check(core, sms)} checks passed`)
