import { defineConfig } from "vitest/config"

/**
 * Workspace packages resolve to their TypeScript sources, never to a build, in tests as in the type check;
 * the rest are Vite's default server conditions, which setting the list replaces.
 */
const conditions = ["@smsbook/source", "module", "node", "development|production"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Node processes a test starts (the CLI, helper scripts) resolve the sources the same way.
    env: { NODE_OPTIONS: [process.env["NODE_OPTIONS"], "--conditions=@smsbook/source"].filter(Boolean).join(" ") }
  }
})
