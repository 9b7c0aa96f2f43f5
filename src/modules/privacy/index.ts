export { EXPORT_QUEUE, Privacy, PrivacyLive } from "./service"
export { AccountApi } from "./contract"
