// Messaging's limits, in a file that imports nothing: the domain and the UI (its composer and lists) share it.

/** A message's text, in characters. */
export const MAX_CONTENT_LENGTH = 2000
/** Spec section 9: messages are paged by 50. */
export const MESSAGES_PAGE_SIZE = 50
export const CONVERSATIONS_PAGE_SIZE = 20
