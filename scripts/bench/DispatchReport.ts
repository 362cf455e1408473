/**
 * The dispatch bench's part of docs/benchmarks.md: throughput, the dispatcher's memory against the parts sent, and the
 * checks that every part reached the SMSC exactly once, as Markdown lines.
 */
import * as os from "node:os"
import type * as DispatchJob from "./DispatchJob.ts"
import * as Series from "./Series.ts"

const count = (n: number): string => Math.round(n).toLocaleString("en-US")
const load = (values: ReadonlyArray<number>) => values.map((v) => v.toFixed(2)).join(" / ")
const yes = (ok: boolean) => ok ? "yes" : "**NO**"

/** The check lines: each compares two counts that must be equal. */
export const checks = (r: DispatchJob.Result): ReadonlyArray<string> => {
  const submitted = Number(r.dispatch.summary["submitted"])
  const receipts = Number(r.dispatch.summary["receipts"])
  return [
    `every part reached the SMSC exactly once: parts taken (${count(r.smsc.accepted)}) = distinct parts (${count(r.smsc.distinct)}) = \`sent_count\` (${count(r.broadcast.sentCount)}): ${yes(r.smsc.accepted === r.smsc.distinct && r.smsc.distinct === r.broadcast.sentCount)}`,
    `one part per recipient: \`sent_count\` = contacts (${count(r.recipients)}): ${yes(r.broadcast.sentCount === r.recipients)}`,
    `the dispatcher's \`submitted\` (${count(submitted)}) = parts taken: ${yes(submitted === r.smsc.accepted)}; none refused: ${yes(Number(r.dispatch.summary["refused"]) === 0)}; none left unanswered: ${yes(r.smsc.unanswered === 0)}`,
    `every DELIVRD receipt applied before \`--once\` stopped: receipts (${count(receipts)}) = submitted: ${yes(receipts === submitted)}; unknown ${String(r.dispatch.summary["unknownReceipts"])}`,
    `one bind: ${yes(r.smsc.binds === 1)}; most submit_sm outstanding at once ${r.smsc.maxOutstanding} (window ${r.window})`
  ]
}

/** The section's lines for one run. */
export const lines = (r: DispatchJob.Result, loadBefore: ReadonlyArray<number>): ReadonlyArray<string> => {
  const m = r.memory
  const flag = r.store === "SQLite" ? "" : " --postgres URL"
  const marks = [0.1, 0.25, 0.5, 0.75, 1].map((share) => ({ share, sample: Series.at(r.samples, r.broadcast.sentCount, share) }))
  return [
    `### ${count(r.recipients)}-recipient broadcast dispatched, ${r.store} (\`npm run bench -- smpp --jobs dispatch --recipients ${r.recipients}${flag}\`)`,
    "",
    `\`smsbook import\` of ${count(r.recipients)} GB mobiles, \`smsbook broadcast --tags all\` of a one-part GSM-7 text, then ` +
    `\`smsbook dispatch --once --tps 0\` (the CLI in its own process, window ${r.window}, receipts requested) to the carrier's test SMSC ` +
    "(its own process on 127.0.0.1, answering every submit_sm at once and sending a DELIVRD receipt right after). The dispatcher's " +
    "resident memory is read from /proc every second beside the SMSC's count of parts taken (read every 250 ms). " +
    `${os.availableParallelism()} CPUs shared with other work, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; ` +
    `load average (1/5/15 min) ${load(loadBefore)} before, ${load(r.loadAverage)} after.`,
    "",
    "| step | wall s | peak RSS MB | |",
    "|---|---|---|---|",
    `| import | ${r.import.seconds.toFixed(1)} | ${r.import.peakRssMB.toFixed(0)} | ${count(r.recipients)} contacts |`,
    `| broadcast | ${r.broadcast.seconds.toFixed(1)} | ${r.broadcast.peakRssMB.toFixed(0)} | \`sent_count\` ${count(r.broadcast.sentCount)}, ${r.broadcast.status} |`,
    `| dispatch --once | ${r.dispatch.seconds.toFixed(1)} | ${r.dispatch.peakRssMB.toFixed(0)} | ${r.dispatch.cpuSeconds.toFixed(1)} CPU s; **${r.partsPerSecond === undefined ? "–" : count(r.partsPerSecond)} parts/s** from the first part at the SMSC to the last |`,
    "",
    `Parts/s in each tenth of the parts: ${r.tenths.map(count).join(", ")}.`,
    "",
    `Dispatcher RSS: ${m.startMB.toFixed(0)} MB when the first parts went out, ${m.atTenthMB.toFixed(0)} MB at a tenth, ${m.atHalfMB.toFixed(0)} MB at half, ` +
    `${m.endMB.toFixed(0)} MB at the end (receipts in), peak ${m.peakMB.toFixed(0)} MB; slope after the first tenth ${m.slopeMBPerMillion.toFixed(1)} MB per million parts. ` +
    `**Flat: ${m.flat ? "yes" : "NO"}** (over the second half of the parts it may grow ${Series.flatTolerance(m.atHalfMB).toFixed(0)} MB: 10 %, at least 16 MB; ` +
    "memory held per part would grow as much in the second half as in the first).",
    "",
    "| parts at the SMSC | seconds | dispatcher RSS MB | its JS heap in use MB | JS heap held from the system MB |",
    "|---|---|---|---|---|",
    ...marks.map(({ share, sample }) =>
      `| ${count(sample?.parts ?? 0)} (${(sample?.parts ?? 0) >= r.broadcast.sentCount * share ? `${share * 100} %` : "the last sample"}) | ${(sample?.seconds ?? 0).toFixed(0)} | ` +
      `${(sample?.rssMB ?? 0).toFixed(0)} | ${sample?.heapMB === undefined ? "–" : sample.heapMB.toFixed(0)} | ${sample?.heapTotalMB === undefined ? "–" : sample.heapTotalMB.toFixed(0)} |`
    ),
    "",
    ...checks(r).map((line) => `- ${line}`)
  ]
}
