export { type UserRow } from "./ports"
export { Administration, AdministrationLive } from "./service"
export { AdministrationApi } from "./contract"
