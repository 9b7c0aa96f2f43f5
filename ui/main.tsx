import "./styles.css"
import { createRoot } from "react-dom/client"
import { App } from "./App"
import { activateLanguage, detectLanguage, i18n, rememberLanguage } from "./i18n"
import { toLanguage } from "./i18n/detect"
import { followAccountLanguage } from "./state/language"
import { restoreSession } from "./state/startup"

const language = detectLanguage()
// Set at once so API calls made before the catalog arrives already carry the right language.
document.documentElement.lang = language
// A ?lang= link is an explicit choice: keep it for the next visits (and for the account, below).
const explicit = toLanguage(new URLSearchParams(location.search).get("lang"))
if (explicit) rememberLanguage(language)

void restoreSession()
try {
  await activateLanguage(language)
} catch {
  // The catalog chunk failed to load (offline, new deploy): render with message ids rather than nothing.
  i18n.activate(language)
}
// From here on, a signed-in account's language replaces the detected one (at once if the session is already restored).
followAccountLanguage(explicit)
createRoot(document.getElementById("root")!).render(<App />)
