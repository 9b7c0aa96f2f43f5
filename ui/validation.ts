// Client-side checks mirroring the server's rules (spec section 5); the server stays the judge and
// its 422 details are shown per field when they differ.

export type Problem = "required" | "email" | "phone" | "password" | "passwordTooShort" | "mismatch"
export type Problems<K extends string> = Partial<Record<K, Problem>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export const isEmail = (value: string) => EMAIL.test(value.trim())
/** Digits only, 10 to 15 of them. */
export const isPhone = (value: string) => /^\d{10,15}$/.test(value.trim())
/** At least 8 characters with an uppercase, a lowercase, a digit and one of @$!%*?&. */
export const isStrongPassword = (value: string) =>
  value.length >= 8 && value.length <= 128 && /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value) && /[@$!%*?&]/.test(value)

export const checkEmail = (value: string): Problem | undefined => (value.trim() === "" ? "required" : isEmail(value) ? undefined : "email")

export const checkNewPassword = (password: string, confirmation: string): Problems<"password" | "confirmPassword"> => {
  const problems: Problems<"password" | "confirmPassword"> = {}
  if (password === "") problems.password = "required"
  else if (password.length < 8) problems.password = "passwordTooShort"
  else if (!isStrongPassword(password)) problems.password = "password"
  if (confirmation === "") problems.confirmPassword = "required"
  else if (confirmation !== password) problems.confirmPassword = "mismatch"
  return problems
}

export interface RegisterValues {
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  password: string
  confirmPassword: string
}

export const checkRegistration = (values: RegisterValues): Problems<keyof RegisterValues> => {
  const problems: Problems<keyof RegisterValues> = checkNewPassword(values.password, values.confirmPassword)
  if (values.firstName.trim() === "") problems.firstName = "required"
  if (values.lastName.trim() === "") problems.lastName = "required"
  const email = checkEmail(values.email)
  if (email) problems.email = email
  if (values.phoneNumber.trim() === "") problems.phoneNumber = "required"
  else if (!isPhone(values.phoneNumber)) problems.phoneNumber = "phone"
  return problems
}
