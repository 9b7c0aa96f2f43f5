export {
  contentLength,
  decideStart,
  decideWrite,
  isParticipant,
  MAX_CONTENT_LENGTH,
  type MessageRecord,
  MESSAGES_PAGE_SIZE,
  pairKey,
  type Participant,
  toMarkRead,
  unreadCount,
  validateContent
} from "./domain"
export {
  type ConversationEvent,
  ConversationEventFeed,
  ConversationEvents,
  type ConversationRecord,
  ConversationRepository,
  type ConversationSummary,
  MessageRateLimiter,
  ServiceTopics
} from "./ports"
export { Messaging, MessagingLive } from "./service"
export { ConversationsApi, ConversationView, MessageView } from "./contract"
export { ConversationsHttpLive } from "./http"
export { ConversationRepositoryLive } from "./adapters/postgres"
export { ConversationRepositoryMemory } from "./adapters/memory"
export { InProcessConversationEvents } from "./adapters/relay"
export { MessageRateLimiterMemory } from "./adapters/rate-limit"
export { ServiceTopicsFromCatalogue } from "./adapters/service-topics"
export { conversationRoom, MessagingRealtime } from "./adapters/socket"
