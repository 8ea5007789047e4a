/**
 * The sink: the last step of an import, the only one with the database. It stages the
 * processor's outcomes in the import's temporary tables (no lock on the database meanwhile),
 * finds duplicate ids and collects company references; the references are checked in `finish`,
 * once every company of the bundle is known. `switchIn` then writes everything staged in one
 * transaction: companies, keys, and each report through the one write path, which logs it.
 */
import type { DataStore } from '../../db/data-store';
import type { ImportStaging, StagedApiKey, StagedRows } from '../../db/import-staging';
import { BUNDLE_VERSION } from '../../schema/bundle';
import type { Actor } from '../../schema/change-log';
import type { Company } from '../../schema/report';
import type { ReportWriter } from '../report-writer';
import { derivedUuid } from '../../schema/derived-uuid';
import type { Outcome, ReportCompanies, ValidApiKey } from './element-processor';
import type { ImportCounts, ImportPhase, ImportProblem } from './index';

const IMPORT: Actor = { kind: 'import' };

/** How many company ids `reference` remembers, to spare the staging table most inserts. */
const REF_CACHE_LIMIT = 10_000;

export interface SinkSettings {
  /** How many problems to keep; counting goes on past it. */
  maxProblems: number;
  /** Creation time of API keys new to the database, ISO 8601. */
  now: string;
}

export class ImportSink {
  readonly counts: ImportCounts = { companies: 0, apiKeys: 0, labelReports: 0 };
  readonly problems: ImportProblem[] = [];
  problemCount = 0;
  /** Set by a `fatal` outcome: the bundle could not be read to its end. */
  fatal = false;
  private versionSeen = false;
  private readonly staging: ImportStaging;
  private readonly knownRefs = new Set<string>();

  constructor(
    private readonly data: DataStore,
    private readonly writer: ReportWriter,
    private readonly settings: SinkSettings,
  ) {
    this.staging = data.importStaging();
  }

  applyAll(outcomes: readonly Outcome[]): void {
    // Nothing after a fatal outcome counts: a second worker may have gone on past the break.
    for (const outcome of outcomes) if (!this.fatal) this.apply(outcome);
  }

  /** Checks that need the whole bundle; runs after the last element. */
  finish(): void {
    if (this.fatal) return;
    if (!this.versionSeen) this.problem('$.version', `missing: a bundle starts with "version": ${BUNDLE_VERSION}`);
    for (const { companyId, path } of this.staging.unknownReferences()) {
      this.problem(path, `unknown company '${companyId}': it is neither in the bundle's companies nor in the database`);
    }
  }

  /** Writes what was staged, in one write transaction: all of it, or (on an error) none of it. */
  switchIn(phase: (phase: ImportPhase) => void = () => {}): void {
    this.data.write(() => {
      // Companies first, so that every key and report finds the company it names.
      for (const page of this.staging.companies()) for (const company of page) this.data.companies.upsert(company);
      for (const page of this.staging.apiKeys()) for (const key of page) this.writeKey(key);
      this.writer.writingMany(this.counts.labelReports, () => {
        // A report the database holds is replaced and logged by what changed; the others are new.
        for (const page of this.staging.replacedReports()) for (const record of page) this.writer.put(record, IMPORT);
        this.writer.createMany(this.staging, IMPORT);
        // What follows inside writingMany is the rebuild of what listing derives.
        phase('listing');
      });
      phase('committing');
    });
  }

  dropStaging(): void {
    this.staging.drop();
  }

  private problem(path: string, message: string): void {
    this.problemCount++;
    if (this.problems.length < this.settings.maxProblems) this.problems.push({ path, message });
  }

  private apply(o: Outcome): void {
    switch (o.t) {
      case 'problem':
        return this.problem(o.path, o.message);
      case 'fatal':
        this.fatal = true;
        return;
      case 'version':
        this.versionSeen = true;
        return;
      case 'company':
        return this.company(o.index, o.id, o.company);
      case 'apiKey':
        return this.apiKey(o.index, o.key);
      case 'report':
        return this.report(o.index, o.id, o.companies, o.valid, o.record);
    }
  }

  private company(index: number, id: string | null, company: Company | null): void {
    // Every id the bundle declares counts as known, valid or not, so that a broken company is
    // reported once and not again at each report that names it.
    const first = id === null ? null : this.staging.companyIds.earlier(id, index);
    if (first !== null) {
      return this.problem(`$.companies[${index}].id`, `company '${id}' is listed twice (first at $.companies[${first}])`);
    }
    if (company === null) return;
    this.staging.stageCompany(company);
    this.counts.companies++;
  }

  private apiKey(index: number, key: ValidApiKey): void {
    const path = `$.apiKeys[${index}]`;
    const first = this.staging.keyHashes.earlier(key.keyHash, index);
    if (first !== null) return this.problem(path, `the same API key is listed twice (first at $.apiKeys[${first}])`);
    this.reference(key.companyId, `${path}.companyId`);
    this.staging.stageApiKey(key);
    this.counts.apiKeys++;
  }

  /** At the switch, against the database as it is then. */
  private writeKey(key: StagedApiKey): void {
    const existing = this.data.keys.findByHash(key.keyHash);
    this.data.keys.upsert({
      id: existing?.id ?? derivedUuid('apiKey', key.keyHash),
      keyHash: key.keyHash,
      companyId: key.companyId,
      name: key.name,
      permissions: key.permissions,
      created: existing?.created ?? this.settings.now,
      // A revocation in the database sticks: importing an older bundle never brings a key back.
      revoked: key.revoked ?? existing?.revoked ?? null,
    });
  }

  private report(index: number, id: string, companies: ReportCompanies, valid: boolean, record: StagedRows | null): void {
    const path = `$.labelReports[${index}]`;
    const first = this.staging.reportIds.earlier(id, index);
    if (first !== null) return this.problem(`${path}.id`, `report id '${id}' is used twice (first at $.labelReports[${first}])`);
    this.reference(companies.owner, `${path}.companyId`);
    companies.access.forEach((c, i) => this.reference(c, `${path}.access[${i}].companyId`));
    companies.states.forEach((c, i) => this.reference(c, `${path}.companyState[${i}].companyId`));
    if (!valid) return;
    this.counts.labelReports++;
    // Once the import is bound to fail, staging more would only be thrown away.
    if (this.problemCount > 0 || record === null) return;
    this.staging.stageReport(index, record);
  }

  /** Remembers the first path naming `companyId`, for the check in `finish`. */
  private reference(companyId: string, path: string): void {
    if (this.knownRefs.has(companyId)) return;
    if (this.knownRefs.size >= REF_CACHE_LIMIT) this.knownRefs.clear();
    this.knownRefs.add(companyId);
    this.staging.reference(companyId, path);
  }
}
