/**
 * The test SMSC as a process, for scripts and end-to-end checks: prints `{"port": N}` once
 * listening, and on SIGTERM/SIGINT a JSON summary (parts accepted, reassembled texts, receipts).
 *
 *   node packages/carrier/test/smsc.ts [--throttle-every N] [--drop-at N,…] [--fail-percent P]
 *     [--receipt-delay MS] [--respond-delay MS] [--packed] [--no-receipts] [--accept-on-close]
 *
 * `--accept-on-close`: submit_sm read but not answered when the ESME closes its side (a killed
 * dispatcher) are taken all the same, as an SMSC that stores a PDU before answering does.
 */
import { parseArgs } from "node:util"
import * as TestSmsc from "./TestSmsc.ts"

const { values } = parseArgs({
  options: {
    "throttle-every": { type: "string" },
    "drop-at": { type: "string" },
    "fail-percent": { type: "string", default: "0" },
    "receipt-delay": { type: "string", default: "20" },
    "respond-delay": { type: "string", default: "0" },
    packed: { type: "boolean", default: false },
    "no-receipts": { type: "boolean", default: false },
    "accept-on-close": { type: "boolean", default: false }
  }
})

const failPercent = Number(values["fail-percent"])
const smsc = await TestSmsc.start({
  ...(values["throttle-every"] === undefined ? {} : { throttleEvery: Number(values["throttle-every"]) }),
  ...(values["drop-at"] === undefined ? {} : { dropAtSubmit: values["drop-at"].split(",").map(Number) }),
  respondDelayMs: Number(values["respond-delay"]),
  packed: values.packed,
  acceptOnClose: () => values["accept-on-close"],
  // Every part whose index falls in the failing share gets UNDELIV, spread evenly over the run.
  receipt: (_part, index) => values["no-receipts"] ? undefined : ({
    stat: failPercent > 0 && Math.floor((index + 1) * failPercent / 100) > Math.floor(index * failPercent / 100) ? "UNDELIV" : "DELIVRD",
    delayMs: Number(values["receipt-delay"])
  })
})
console.log(JSON.stringify({ port: smsc.port }))

const stop = async () => {
  const receipts = [...smsc.receipts.values()]
  console.log(JSON.stringify({
    accepted: smsc.accepted.length,
    unanswered: smsc.unanswered.length,
    binds: smsc.binds(),
    failedReceipts: receipts.filter((stat) => stat !== "DELIVRD").length,
    messages: smsc.reassembled()
  }))
  await smsc.close()
  process.exit(0)
}
process.on("SIGTERM", () => void stop())
process.on("SIGINT", () => void stop())
