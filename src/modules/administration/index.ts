export { type UserRow } from "./ports"
export { Administration, AdministrationLive, type ExportRange } from "./service"
export { AdministrationApi } from "./contract"
