#!/usr/bin/env -S node --max-semi-space-size=16 --max-old-space-size=256
/**
 * The `smsbook` executable. Installed from npm it runs the build (`dist/`); in a clone, outside `node_modules`
 * where Node strips types, it runs the TypeScript sources, resolving workspace packages to theirs.
 *
 * V8 sizes its heap by the machine's memory, and only flags given when Node starts change that (`env -S`:
 * coreutils 8.30+, macOS, the BSDs, npm's Windows shims):
 * - `--max-semi-space-size=16` (MiB) caps the young generation, which otherwise grows to hold ~100 MB of garbage:
 *   a million-recipient broadcast peaks at ~190 MB instead of ~320 MB, and a long import ~100 MB lower, at the
 *   same CPU time.
 * - `--max-old-space-size=256` (MiB) caps the old generation, and with it V8's appetite: under a small cap it
 *   collects garbage sooner instead of growing. A 1M-message report peaks at ~200 MB instead of ~300, at the same
 *   speed. Every command streams (lists stop at 1000 records), so none needs more: the live heap stays under
 *   ~100 MB. `serve` needs this cap, so started here it no longer starts itself again (bin.ts).
 */
// A namespace import, so an older Node than smsbook runs on gets the sentence below, not a SyntaxError on a name.
import * as nodeModule from "node:module"

const installed = import.meta.url.includes("/node_modules/")

// The shebang runs whichever `node` comes first on PATH: a supervisor's PATH often holds the system's. The package
// needs 22.19 (its `engines`); a clone runs the TypeScript sources, which need the root's Node 24.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
if (installed ? major < 22 || (major === 22 && minor < 19) : major < 24) {
  process.stderr.write(
    `smsbook needs Node.js ${installed ? "22.19" : "24"} or later, and ${process.execPath} is v${process.versions.node}: ` +
      `put a newer node first on PATH${installed ? "" : " (the clone's own: node_modules/.bin)"}, or run it through npx\n`
  )
  process.exit(1)
}

// V8's code cache on disk (as TypeScript's own bin does): about a quarter less CPU at every start.
nodeModule.enableCompileCache()

// Before anything else loads: a Ctrl-C or SIGTERM from here on is remembered until the command line listens itself,
// so a run stopped while it loads still ends with its message (and its JSON document), not silently.
await import(installed ? "../dist/internal/earlySignals.js" : "../src/internal/earlySignals.ts")

if (installed) {
  await import("../dist/bin.js")
} else {
  // The `@smsbook/source` export condition, as `node --conditions=@smsbook/source` would set it.
  nodeModule.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: ["@smsbook/source", ...context.conditions] })
  })
  await import("../src/bin.ts")
}
