export {
  type Actor,
  InsufficientRights,
  requireRole,
  Role,
  type User
} from "./domain"
export { UserView, AuthApi, SessionView } from "./contract"
export { Identity, IdentityLive } from "./service"
export { TwoFactorAttemptsLive, TwoFactorLive } from "./two-factor"
export { InProcessAccountEvents } from "./account-events"
export { type AccountChangeInput, parseRole, UserNotFound } from "./account-admin"
export { UserRepository } from "./ports"
export { PayoutAccountLookup, ProfileRepository } from "./profile/ports"
export { ProfilesLive } from "./profile/service"
export { OwnProfileView, PublicProfileView, UploadsApi, UsersApi } from "./profile/contract"
export { AccountDirectoryFromUsers } from "./account-directory"
