import Bowser from "bowser"

/**
 * The browser and system a user agent names, for the sessions list ("Firefox sur Linux"), read by
 * Bowser (a well-kept parser: Edge and Opera that say "Chrome", Chrome that says "Safari", Android
 * that says "Linux"); null for what it does not recognise. Kept out of domain.ts so the UI's bundle,
 * which imports the domain's rules, does not carry the parser.
 */
export const describeUserAgent = (userAgent: string | null): { readonly browser: string | null; readonly os: string | null } => {
  if (!userAgent) return { browser: null, os: null }
  const parsed = Bowser.parse(userAgent)
  return { browser: parsed.browser.name || null, os: parsed.os.name || null }
}
