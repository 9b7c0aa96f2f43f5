export { MessagingLive } from "./service"
export { Moderation, ModerationLive } from "./moderation"
export { ConversationsApi, ConversationView, MessageView } from "./contract"
