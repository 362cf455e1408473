/** A plain-JavaScript service importing @smsbook/core as ESM (`import`), as a consumer on Node 22 or 24 would. */
import * as core from "@smsbook/core"
import * as sms from "@smsbook/core/Sms"
import { check } from "./checks.js"

const store = await import("@smsbook/store")
if (typeof store.Store !== "object") throw new Error("@smsbook/store has no Store module")
console.log(`esm ${process.version}: ${check(core, sms)} checks passed`)
