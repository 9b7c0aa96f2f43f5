export {
  type Actor,
  InsufficientRights,
  isStrongPassword,
  isValidEmail,
  isValidPhone,
  requireRole,
  Role,
  type User
} from "./domain"
export { Authentication, CurrentUser, toUserView, UserView, AuthApi, UsersApi, SessionView } from "./api"
export { Identity, IdentityLive } from "./service"
export { AuthenticationLive, AuthHttpLive, UsersHttpLive } from "./http"
export { IdentityPostgresAdapters } from "./adapters/postgres"
export { IdentityMemoryAdapters, PlainTestHasher } from "./adapters/memory"
export { JwtAccessTokens, NodeSecrets, ScryptPasswordHasher } from "./adapters/crypto"
export { UserRepository } from "./ports"
