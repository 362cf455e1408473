/**
 * The shape every public package must have to be published: what scripts/consumer.sh proves on the tarballs, held
 * here on the manifests so a new module or package that breaks it fails `npm test` at once.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const repo = path.resolve(import.meta.dirname, "..")

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly version: string
  readonly license?: string
  readonly engines?: { readonly node?: string }
  readonly sideEffects?: boolean | ReadonlyArray<string>
  readonly files?: ReadonlyArray<string>
  readonly bin?: Readonly<Record<string, string>>
  readonly scripts?: Readonly<Record<string, string>>
  readonly exports?: Readonly<Record<string, unknown>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
}

const readManifest = (file: string): Manifest => JSON.parse(fs.readFileSync(file, "utf8"))

const workspaces: ReadonlyArray<string> = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).workspaces
const packages = workspaces.map((dir) => ({ dir: path.join(repo, dir), manifest: readManifest(path.join(repo, dir, "package.json")) }))
const published = packages.filter(({ manifest }) => manifest.private !== true)

/** An export target of a module: the sources for development, the build for everybody else. */
const isEntry = (target: unknown): target is { "@smsbook/source": string; types: string; default: string } =>
  typeof target === "object" && target !== null && "@smsbook/source" in target && "types" in target && "default" in target

describe("published packages", () => {
  it("are the public workspaces: core, store and batch at least", () => {
    expect(published.map(({ manifest }) => manifest.name)).toEqual(
      expect.arrayContaining(["@smsbook/core", "@smsbook/store", "@smsbook/batch"])
    )
  })

  describe.each(published)("$manifest.name", ({ dir, manifest }) => {
    it("ships dist, src, README and LICENSE only, with engines, sideEffects and a build", () => {
      expect(manifest.license).toBe("MIT")
      expect(manifest.engines?.node).toMatch(/^>=22\./)
      expect(manifest.sideEffects).toBeDefined()
      expect(new Set(manifest.files)).toEqual(new Set([...(manifest.bin ? ["bin"] : []), "dist", "src", "README.md", "LICENSE"]))
      expect(fs.readFileSync(path.join(dir, "LICENSE"), "utf8")).toContain("smsbook contributors")
      expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toMatch(/## Install[\s\S]*npm install/)
      expect(manifest.scripts?.["build"]).toContain("tsconfig.build.json")
      expect(fs.existsSync(path.join(dir, "tsconfig.build.json"))).toBe(true)
    })

    it("shares the service's own effect: a peer dependency of the workspace's minor, unless it is the command line", () => {
      // Effect's types cross every public signature: with a copy of its own nested under the package, a service's
      // Effect, Result and Schema values fail to type-check against it (two copies, two types).
      const pinned = readManifest(path.join(repo, "node_modules/effect/package.json")).version
      const minor = pinned.split(".").slice(0, 2).join(".")
      if (manifest.bin !== undefined) {
        expect(manifest.dependencies?.["effect"]).toBe(pinned)
        return
      }
      expect(manifest.dependencies?.["effect"]).toBeUndefined()
      expect(manifest.peerDependencies?.["effect"]).toBe(`~${minor}.0`)
      expect(manifest.devDependencies?.["effect"]).toBe(pinned)
    })

    it("installs, in its README, every package the README's examples import", () => {
      // npm hoists dependencies of dependencies, so an example can work there and fail under a strict installer.
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8")
      const installed = readme.match(/npm install ([^\n#]*)/)?.[1]?.trim().split(/\s+/) ?? []
      const imported = [...readme.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].flatMap(([, code = ""]) =>
        [...code.matchAll(/\bfrom "([^"]+)"/g)].map(([, specifier = ""]) => specifier.match(/^(?:@[^/]+\/)?[^/]+/)?.[0] ?? "")
      )
      expect(imported.filter((name) => !name.startsWith("node:") && !installed.includes(name))).toEqual([])
    })

    it("exports each module as its sources under @smsbook/source and as its build otherwise", () => {
      const entries = Object.entries(manifest.exports ?? {})
      expect(manifest.exports?.["./internal/*"]).toBeNull()
      expect(manifest.exports?.["./package.json"]).toBe("./package.json")
      const modules = entries.filter(([, target]) => isEntry(target))
      expect(modules.map(([subpath]) => subpath)).toContain(".")
      for (const [subpath, target] of modules) {
        if (!isEntry(target)) continue
        expect(Object.keys(target), subpath).toEqual(["@smsbook/source", "types", "default"])
        const source = target["@smsbook/source"]
        expect(source, subpath).toMatch(/^\.\/src\/[\w/]+\.ts$/)
        expect(fs.existsSync(path.join(dir, source)), `${subpath} → ${source}`).toBe(true)
        expect(target.types).toBe(source.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".d.ts"))
        expect(target.default).toBe(source.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".js"))
      }
    })

    it("keeps reference directives out of its declarations", () => {
      // A `preserve` reference is copied into the `.d.ts` as a path into `src/`: its ambient declarations (a
      // `declare module` of an untyped dependency) then enter every consumer's program and collide with theirs.
      const sources = fs.readdirSync(path.join(dir, "src"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
      const preserved = sources.filter((file) =>
        /^\/\/\/\s*<reference\b[^>]*\bpreserve\s*=\s*["']true["']/m.test(fs.readFileSync(path.join(dir, "src", file), "utf8"))
      )
      expect(preserved).toEqual([])
    })

    it("has executables that start with a shebang", () => {
      for (const bin of Object.values(manifest.bin ?? {})) {
        // Node flags need `env -S` (the launcher caps V8's young generation): `node` is still what runs.
        expect(fs.readFileSync(path.join(dir, bin), "utf8")).toMatch(/^#!\/usr\/bin\/env (?:-S )?node(?: --[a-z-]+(?:=\S+)?)*\n/)
      }
    })
  })
})

describe("@smsbook/core", () => {
  const core = path.join(repo, "packages/core")
  const manifest = readManifest(path.join(core, "package.json"))
  const sources = fs.readdirSync(path.join(core, "src"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))

  it("gives every top-level module a subpath export", () => {
    const modules = sources.filter((file) => /^[A-Z]\w*\.ts$/.test(file)).map((file) => `./${file.replace(/\.ts$/, "")}`)
    expect(modules.length).toBeGreaterThan(10)
    expect(Object.keys(manifest.exports ?? {})).toEqual(expect.arrayContaining(modules))
  })

  it("imports nothing from Node, so its rules run in browsers", () => {
    const nodeImports = sources.filter((file) =>
      /from\s+["']node:|import\(\s*["']node:/.test(fs.readFileSync(path.join(core, "src", file), "utf8"))
    )
    expect(nodeImports).toEqual([])
  })

  it("has no side effects on import (what sideEffects: false promises bundlers)", () => {
    expect(manifest.sideEffects).toBe(false)
  })
})
