// The face of the events module: what other modules may use of it (issue 23; STYLE 20). Anything not exported here is
// the module's own business; dependency-cruiser (.dependency-cruiser.cjs) refuses an import past this file.
export { DELIVER_TASK, EVENT_VERSION, OUTBOX_JOBS, emitEvent, emitEventToSubscribedCompanies, outboxCtes, queueOf, type PlannedEvent } from "./emit.js";
