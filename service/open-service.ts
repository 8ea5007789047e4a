/** Everything the service needs, opened on one SQLite file. */
import { CompanyStore } from '../db/company-store';
import { openDatabase, type Db } from '../db/database';
import { KeyStore } from '../db/key-store';
import { registerSqlFunctions } from '../db/query/sql-functions';
import { ApiKeys } from './api-keys';
import { LabelReportService } from './label-reports';

export interface Service {
  db: Db;
  reports: LabelReportService;
  apiKeys: ApiKeys;
  companies: CompanyStore;
  close(): void;
}

export function openService(dbFile: string): Service {
  const db = openDatabase(dbFile);
  registerSqlFunctions(db);
  const companies = new CompanyStore(db);
  return {
    db,
    reports: new LabelReportService(db),
    apiKeys: new ApiKeys(new KeyStore(db), companies),
    companies,
    close: () => {
      if (db.open) db.close();
    },
  };
}
