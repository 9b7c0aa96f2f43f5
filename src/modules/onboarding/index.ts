export {
  type ApplicationInput,
  type ApplicationState,
  type ApplicationStatus,
  ApplicationStatuses,
  canResubmit,
  decideApprove,
  decideReject,
  decideResubmit,
  decideSubmit,
  type DocumentSlot,
  DocumentSlots,
  isFinallyRefused,
  resubmissionOf
} from "./domain"
export { type ApplicationListRow, type ApplicationRecord, ApplicationRepository, type DocumentRecord } from "./ports"
export { type AdminApplicationDetail, type ApplicationDetail, Operator, ProviderApplications, ProviderApplicationsLive, type Reviewer } from "./service"
export { AdminApplicationsApi, ProviderApplicationsApi } from "./contract"
export { toApplicationRowView } from "./views"
