// The partners module's face: what other modules may use of it.
export { createPartner } from "./partners.js";
export { createCompanyAddress, deleteCompanyAddress, listCompanyAddresses, updateCompanyAddress } from "./addresses.js";
