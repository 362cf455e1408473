/**
 * The SMSC of the dispatch bench, in a process of its own: the carrier's test SMSC answering every submit_sm at once
 * with a DELIVRD receipt right after; prints its port, then its count every 250 ms, and on SIGTERM what it took, once.
 */
import * as TestSmsc from "../../packages/carrier/test/TestSmsc.ts"

const smsc = await TestSmsc.start({ receipt: () => ({ stat: "DELIVRD", delayMs: 0 }) })
const print = (value: object) => void process.stdout.write(`${JSON.stringify(value)}\n`)
print({ port: smsc.port })
const progress = setInterval(() => print({ accepted: smsc.accepted.length }), 250)

/**
 * Exactly once: a part is its number with its concatenation reference and sequence, so a part sent twice is counted
 * twice in `accepted` and once in `distinct`.
 */
const summary = () => {
  const keys = new Set<string>()
  for (const part of smsc.accepted) {
    const c = part.concatenation
    keys.add(c === undefined ? part.destination : `${part.destination}/${c.reference}/${c.total}/${c.sequence}`)
  }
  return { accepted: smsc.accepted.length, distinct: keys.size, unanswered: smsc.unanswered.length, binds: smsc.binds(), maxOutstanding: smsc.maxOutstanding() }
}

const stop = async () => {
  clearInterval(progress)
  print({ summary: summary() })
  await smsc.close()
  process.exit(0)
}
process.once("SIGTERM", () => void stop())
process.once("SIGINT", () => void stop())
