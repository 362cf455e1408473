/**
 * Command: prints the summary `npm run bench` writes for a CPU profile, for any `.cpuprofile` file
 * (`node --cpu-prof …`). Usage: node scripts/bench/SummarizeProfile.ts FILE [TOP] — TOP entries per table (default 15).
 */
import * as Profile from "./Profile.ts"

const [file, top] = process.argv.slice(2)
if (file === undefined) {
  console.error("usage: SummarizeProfile.ts FILE.cpuprofile [TOP]")
  process.exit(2)
}
console.log(Profile.markdown(Profile.summarize(file, top === undefined ? 15 : Number(top))).join("\n"))
