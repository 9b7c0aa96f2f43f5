// The brand's name comes from the server (SITE_NAME, written into index.html's application-name);
// the default stands in when the page was not served by it (a test page, a file opened locally).
export const DEFAULT_SITE_NAME = "Proxima"

let cached: string | undefined

export const siteName = (): string => {
  if (cached === undefined) {
    const named = typeof document === "undefined" ? "" : document.querySelector<HTMLMetaElement>('meta[name="application-name"]')?.content
    // An unfilled placeholder means the page did not come through the server.
    cached = named && !named.includes("%") ? named.trim() : DEFAULT_SITE_NAME
  }
  return cached
}
