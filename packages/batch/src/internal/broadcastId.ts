/**
 * The id a broadcast is known by: its `--id`, else a digest of what it says and to whom. The send, its plan and its
 * dry run all take it from here, so one broadcast has one anti-spam id whichever way it goes out.
 */
import * as SendDigest from "./sendDigest.ts"

/**
 * The id of a broadcast sent without `--id` (issue 11): `bc-` and 37 hex digits of the SHA-256 of its
 * case-folded, sorted tags, its text and the short name. The same broadcast run again has the same id, so a run
 * that was killed resumes (nobody gets it twice, nobody is left out) and a finished one is not sent twice.
 */
export const digestId = (tags: ReadonlyArray<string>, message: string, shortName: string): string => {
  const folded = [...new Set(tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ""))].sort()
  return SendDigest.of("bc", [folded, message, shortName])
}

/**
 * The id a broadcast is sent under: its `--id`, else its {@link digestId}. A plan is the broadcast it was made from,
 * so it gets the same id: a broadcast sent once directly and once from a plan is refused the second time, and one
 * interrupted either way is resumed either way.
 */
export const idOf = (
  request: { readonly tags: ReadonlyArray<string>; readonly message: string; readonly id?: string | undefined },
  shortName: string
): string => request.id ?? digestId(request.tags, request.message, shortName)
