// Typed calls, one per endpoint. Screens pass `quiet` for the failures they show inline.

import { api, type RequestOptions } from "./client"
import type {
  ContactRequest,
  EmailRequest,
  Empty,
  LoginRequest,
  RegisterRequest,
  ResetPasswordRequest,
  Session,
  UpdateMeRequest,
  UpdatePasswordRequest,
  UserData
} from "./types"

type Quiet = RequestOptions["quiet"]
const post = <T>(path: string, body: unknown, quiet?: Quiet, extra: RequestOptions = {}) =>
  api<T>(path, { method: "POST", body, quiet, ...extra })

export const authApi = {
  register: (body: RegisterRequest, quiet?: Quiet) => post<UserData>("/auth/register", body, quiet, { auth: false }),
  login: (body: LoginRequest, quiet?: Quiet) => post<Session>("/auth/login", body, quiet, { auth: false }),
  logout: () => post<Empty>("/auth/logout", {}, true, { auth: false }),
  /** The startup check has its own 10 s limit (spec section 9). */
  me: (options: RequestOptions = {}) => api<UserData>("/auth/me", options),
  forgotPassword: (body: EmailRequest, quiet?: Quiet) =>
    post<Empty>("/auth/forgot-password", body, quiet, { auth: false, timeoutMs: 15_000 }),
  resetPassword: (token: string, body: ResetPasswordRequest, quiet?: Quiet) =>
    post<Empty>(`/auth/reset-password/${encodeURIComponent(token)}`, body, quiet, { auth: false }),
  updatePassword: (body: UpdatePasswordRequest, quiet?: Quiet) =>
    api<Empty>("/auth/update-password", { method: "PATCH", body, quiet }),
  verifyEmail: (token: string, quiet?: Quiet) =>
    api<Empty>(`/auth/verify-email/${encodeURIComponent(token)}`, { auth: false, quiet }),
  resendVerification: (body: EmailRequest, quiet?: Quiet) =>
    post<Empty>("/auth/resend-verification-public", body, quiet, { auth: false })
}

export const usersApi = {
  me: () => api<UserData>("/users/me"),
  updateMe: (body: UpdateMeRequest, quiet?: Quiet) => api<UserData>("/users/me", { method: "PATCH", body, quiet })
}

export const contactApi = {
  send: (body: ContactRequest, quiet?: Quiet) => post<Empty>("/contact/send-message", body, quiet, { auth: false })
}
