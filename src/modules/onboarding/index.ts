export { type AdminApplicationDetail, Operator, ProviderApplications, ProviderApplicationsLive } from "./service"
export { AdminApplicationsApi, ProviderApplicationsApi } from "./contract"
export { toApplicationRowView } from "./views"
