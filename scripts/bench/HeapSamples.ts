/**
 * Preload (`node --import`) of the dispatch bench's dispatcher: every second it appends the JavaScript heap in use, the
 * heap V8 holds from the system and the memory outside it (`process.memoryUsage()`, MB) as a JSON line to `SMSBOOK_BENCH_HEAP`.
 */
import { appendFileSync } from "node:fs"

const target = process.env["SMSBOOK_BENCH_HEAP"]
if (target !== undefined && target !== "") {
  const sample = () => {
    const usage = process.memoryUsage()
    appendFileSync(target, `${JSON.stringify({ at: Date.now(), rssMB: usage.rss / 1e6, heapMB: usage.heapUsed / 1e6, heapTotalMB: usage.heapTotal / 1e6, externalMB: usage.external / 1e6 })}\n`)
  }
  // Unref'd: the sampling never keeps the process alive.
  setInterval(sample, 1000).unref()
}
