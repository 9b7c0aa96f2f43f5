// After a client-side navigation, the new screen's heading takes focus so keyboard and screen
// reader users start at the top of the new content. Screens mount only when the route changes,
// so "every screen but the first one" is exactly "after a navigation".
let firstScreen = true

export const takeHeadingFocus = (heading: HTMLElement | null) => {
  if (firstScreen) {
    firstScreen = false
    return
  }
  heading?.focus()
}
