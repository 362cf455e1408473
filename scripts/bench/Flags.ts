/**
 * The flags of a bench script, as `node:util`'s `parseArgs` reads them: `--help` (`-h`) prints the script's usage,
 * and a flag it does not know, or one without its value, is one line and the usage on stderr with exit code 2,
 * never a stack trace.
 */

/** The values `parse` read (its options must include `help`); exits with the usage when asked or when it failed. */
export const read = <V extends { readonly help?: boolean | undefined }>(usage: string, parse: () => { readonly values: V }): V => {
  let values: V
  try {
    values = parse().values
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`)
    process.exit(2)
  }
  if (values.help === true) {
    process.stdout.write(usage)
    process.exit(0)
  }
  return values
}
