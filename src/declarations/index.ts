// The face of the declarations module: what handlers and other modules may use of it (issue 23; STYLE 20).
export { generateIsaf, isafSizes } from "./isaf.js";
export { computeFr0600, generateFr0564 } from "./returns.js";
export { createSubmission, getSubmission, listSubmissions, markSubmission } from "./submissions.js";
export { downloadSaft, getSaft, pruneSaftFiles, requestSaft, runSaftJob } from "./saft.js";
