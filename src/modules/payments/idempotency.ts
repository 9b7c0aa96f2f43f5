import { createHash } from "node:crypto"

/**
 * Idempotency keys of gateway writes. A caller names the write (`booking:<id>:capture:<intent>`);
 * two rules turn that name into the key the gateway receives:
 * - the key names the attempt (`:attempt-<n>`): a gateway that answered with an error stores that
 *   answer under the key (Stripe replays it for 24 hours), so the next try after an error is a new
 *   attempt; a try that got no answer (timeout, network) repeats its attempt, and so its key, so that
 *   a request the gateway did process is not done twice;
 * - the key covers the parameters (`:p<digest>`): a request corrected by its caller (other billing
 *   details, say) is a new request, while an identical retry stays idempotent (a gateway refuses a
 *   key reused with other parameters).
 */

/** JSON with object keys sorted at every level and undefined fields left out: equal values, equal text. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        )
      : v
  ) ?? "null"

/** A short digest of a request's parameters (96 bits: collisions are out of reach). */
export const parametersDigest = (params: unknown) => createHash("sha256").update(canonicalJson(params)).digest("base64url").slice(0, 16)

/** The key sent for a request: the caller's key extended with the digest of what the request asks. */
export const keyCoveringParameters = (key: string, params: unknown) => `${key}:p${parametersDigest(params)}`

/** The key of one attempt of a named write (attempts count from 0). */
export const attemptKey = (key: string, attempt: number) => `${key}:attempt-${attempt}`
