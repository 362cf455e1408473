/**
 * Preload (`node --import`) of every measured child: on exit it writes the process's peak resident
 * memory (`process.resourceUsage().maxRSS`, KiB) and CPU time (µs) to the file named by `SMSBOOK_BENCH_RSS`.
 */
import { writeFileSync } from "node:fs"

const target = process.env["SMSBOOK_BENCH_RSS"]
if (target !== undefined && target !== "") {
  process.on("exit", (code) => {
    const usage = process.resourceUsage()
    writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, cpuMicros: usage.userCPUTime + usage.systemCPUTime, code }))
  })
}
