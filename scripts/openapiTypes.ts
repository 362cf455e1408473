/**
 * Writes the OpenAPI types the HTTP tests type-check their openapi-fetch client against
 * (packages/http/test/generated/openapi.ts, not committed); `npm run typecheck` runs it first.
 */
import { write } from "../packages/http/test/openapiTypes.ts"

await write()
