/**
 * A load-time fix for libphonenumber-js: its `matchesEntirely` helper builds a `RegExp` from
 * metadata text on every call — a third of an import's CPU. This swaps in the same function
 * compiling each pattern once. Registered by the `smsbook` entry before the library loads.
 */
import { registerHooks } from "node:module"

/** The helper's module, as the ES build of libphonenumber-js ships it. */
export const target = "/libphonenumber-js/es6/helpers/matchesEntirely.js"

/** The replacement: the library's own semantics (anchored, non-capturing, `text || ""`), compiled once per pattern. */
export const source = `const compiled = new Map()
export default function matchesEntirely(text, regularExpressionText) {
  let expression = compiled.get(regularExpressionText)
  if (expression === undefined) {
    expression = new RegExp("^(?:" + regularExpressionText + ")$")
    compiled.set(regularExpressionText, expression)
  }
  return expression.test(text || "")
}
`

let registered = false

/** Whether {@link register} ran in this thread (the import's worker thread then installs the swap too). */
export const isRegistered = (): boolean => registered

/** Installs the swap for every module loaded after this call. */
export const register = () => {
  registered = true
  return registerHooks({
    load: (url, context, nextLoad) =>
      url.endsWith(target) ? { format: "module", source, shortCircuit: true } : nextLoad(url, context)
  })
}
