// Objection models of the platform tables. Columns are snake_case in Postgres and camelCase on the models.
// Queries always receive the knex instance or transaction explicitly: `Partner.query(trx)`.
import { Model, snakeCaseMappers } from "objection";

class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}

export class ApiKeyRecord extends BaseModel {
  static override tableName = "api_keys";
  id!: string;
  accountId!: string;
  name!: string;
  prefix!: string;
  secretHash!: Buffer;
  scopes!: string[];
  companyIds!: string[] | null;
  rateLimitPerMinute!: number | null;
  createdAt!: Date;
  revokedAt!: Date | null;
}

export interface AddressValue {
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  countryCode: string;
}

export class CompanyRecord extends BaseModel {
  static override tableName = "companies";
  id!: string;
  accountId!: string;
  name!: string;
  code!: string;
  vatCode!: string | null;
  countryCode!: string;
  baseCurrency!: string;
  invoiceCurrency!: string;
  address!: AddressValue | null;
  email!: string | null;
  phone!: string | null;
  iban!: string | null;
  fiscalYearStartMonth!: number;
  invoiceIssuer!: { name: string; position?: string | null } | null;
  contactPerson!: { firstName: string; lastName: string; phone?: string | null; email?: string | null } | null;
  createdAt!: Date;
  updatedAt!: Date;

  static override get jsonAttributes() {
    return ["address", "invoiceIssuer", "contactPerson"];
  }
}
