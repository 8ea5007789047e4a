/** A small seeded database file for the desktop tests: acme owns three reports, nordic one. */
import { startService } from '../../host/start-service';
import { COMPANIES, makeReport, seedReports } from '../support/service-fixture';

export async function seedDatabase(dbFile: string): Promise<void> {
  const running = await startService({ dbFile, port: 0 });
  try {
    for (const company of COMPANIES) running.service.companies.upsert(company);
    seedReports(running, [
      makeReport('a1'),
      makeReport('a2'),
      makeReport('a3', { access: [{ companyId: 'nordic', role: 'viewer' }] }),
      makeReport('n1', { companyId: 'nordic' }),
    ]);
  } finally {
    await running.close();
  }
}
