/**
 * Writes docs/schema.md from the read model (db/read-model) and the schema a fresh database gets
 * through every migration: every table with its columns, what keeps each kept table (its
 * triggers and what fires them, the write path's own statements, its rebuild) and why it exists
 * (the reads it serves and their figures). `npm run docs:schema`; a test fails when the file is
 * not what this writes (test/db/schema-doc.test.ts).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION, type Db } from '../db/database';
import { READ_MODEL, type DeclaredTrigger, type KeptTableDeclaration } from '../db/read-model';
import { columnsOf, indexesOf, tableNames, tablesWrittenBy } from '../db/schema-objects';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SCHEMA_DOC = `${ROOT}docs/schema.md`;

/** The file of each declaration in db/read-model, by declaration name. */
const DECLARED_IN: Record<string, string> = {
  listing: 'listing.ts',
  listing_counts: 'listing-counts.ts',
  'custom field counts': 'custom-field-counts.ts',
  'group figures': 'group-figures.ts',
  custom_field_pair_counts: 'custom-field-pair-counts.ts',
  review_current: 'review-current.ts',
  shipment_listing: 'shipments.ts',
  shipment_counts: 'shipments.ts',
};

const oneLine = (sql: string) => sql.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').trim();

/** What fires a trigger: its event, and whether a condition narrows it. */
function firedBy(trigger: DeclaredTrigger): { event: string; when: string | null } {
  const sql = oneLine(trigger.sql);
  const match = /^CREATE TRIGGER \w+ ((?:AFTER|BEFORE) .*? ON \w+)(?: WHEN (.*?))? BEGIN /.exec(sql);
  if (!match) throw new Error(`the trigger ${trigger.name} has no event this script reads`);
  return { event: match[1], when: match[2] ?? null };
}

/** The tables a trigger's statements write. */
const writes = (trigger: DeclaredTrigger): string[] => tablesWrittenBy(oneLine(trigger.sql));

function columnList(db: Db, table: string): string[] {
  const columns = columnsOf(db, table);
  return columns.map((c) => {
    const parts = [c.type || 'no declared type'];
    if (c.notnull) parts.push('not null');
    if (c.dflt_value !== null) parts.push(`default ${c.dflt_value}`);
    if (c.pk) parts.push(`primary key${columns.filter((o) => o.pk).length > 1 ? ` (${c.pk})` : ''}`);
    return `  - \`${c.name}\` ${parts.join(', ')}`;
  });
}

/** The migration that first made each table, by running them one at a time. */
function madeBy(): Map<string, string> {
  const files = readdirSync(`${ROOT}db/migrations`).filter((f) => /^\d{3}-.*\.ts$/.test(f)).sort();
  if (files.length !== SCHEMA_VERSION) throw new Error(`${files.length} migration files for schema version ${SCHEMA_VERSION}`);
  const db = new Database(':memory:');
  const made = new Map<string, string>();
  try {
    for (let version = 1; version <= SCHEMA_VERSION; version++) {
      migrate(db, version);
      for (const name of tableNames(db)) {
        if (!made.has(name)) made.set(name, files[version - 1]);
      }
    }
  } finally {
    db.close();
  }
  return made;
}

function keptSection(db: Db, d: KeptTableDeclaration, made: Map<string, string>): string[] {
  const lines = [`### ${d.name}`, ''];
  lines.push(`Declared in [db/read-model/${DECLARED_IN[d.name]}](../db/read-model/${DECLARED_IN[d.name]}).`, '');
  lines.push(`- **Made from:** ${d.madeFrom}.`, `- **Key:** ${d.key}.`, '');
  lines.push('**Why it is kept**', '');
  for (const r of d.reads) lines.push(`- ${r.read}: ${r.figure}.`);
  lines.push('', '**Tables**', '');
  for (const t of d.tables) {
    lines.push(`- \`${t.name}\` (since ${made.get(t.name)})`, ...columnList(db, t.name));
  }
  lines.push('', '**How a write moves it**', '', d.writes, '');
  lines.push(`Triggers (${d.triggers.length}):`, '');
  for (const t of d.triggers) {
    const { event, when } = firedBy(t);
    const condition = when === null ? '' : when.length <= 160 ? `, when \`${when}\`` : ', under a condition';
    lines.push(`- \`${t.name}\`: ${event}${condition}; writes ${writes(t).map((w) => `\`${w}\``).join(', ')}`);
  }
  for (const [name, statements] of Object.entries(d.statements ?? {})) {
    lines.push('', `The write path's own statements, \`${name}\`:`, '', '```sql', ...statements.map((s) => `${s.trim()};`), '```');
  }
  if (d.indexes.length > 0) {
    lines.push('', `Indexes (${d.indexes.length}):`, '');
    for (const i of d.indexes) lines.push(`- \`${i.name}\` ${oneLine(i.sql).replace(/^CREATE INDEX \w+ /, '')}: ${i.serves}${i.keptThroughBulkLoad ? ' (kept through a bulk load)' : ''}`);
  }
  lines.push('', '**How a bulk load rebuilds it**', '');
  lines.push(
    d.bulkLoad === 'rebuilt'
      ? 'A bulk import sets its triggers and indexes aside for its writes, then runs this and makes the indexes and triggers again:'
      : 'A bulk import keeps its triggers (it writes nothing it is made from). Its rows follow from what it is made from as this makes them:',
    '',
    '```sql',
    d.rebuild.trim(),
    '```',
    '',
  );
  return lines;
}

/** The text of docs/schema.md. */
export function schemaDoc(): string {
  const made = madeBy();
  const db = new Database(':memory:');
  try {
    migrate(db);
    const kept = new Map(READ_MODEL.flatMap((d) => d.tables.map((t) => [t.name, d] as const)));
    const triggersOn = new Map<string, DeclaredTrigger[]>();
    for (const d of READ_MODEL) for (const t of d.triggers) {
      const on = /ON (\w+)$/.exec(firedBy(t).event)![1];
      triggersOn.set(on, [...(triggersOn.get(on) ?? []), t]);
    }
    const declaredOf = new Map(READ_MODEL.flatMap((d) => d.triggers.map((t) => [t.name, d.name] as const)));
    const tables = tableNames(db);
    const sqliteOwn = tables.filter((t) => t.startsWith('sqlite_'));
    const shadow = tables.filter((t) => t.startsWith('report_text_'));
    const base = tables.filter((t) => !kept.has(t) && !sqliteOwn.includes(t) && !shadow.includes(t));
    const lines = [
      '# The schema',
      '',
      `<!-- Written by \`npm run docs:schema\` (scripts/schema-doc.ts) from db/read-model and a fresh database migrated to schema ${SCHEMA_VERSION}; do not edit by hand. -->`,
      '',
      `Schema version ${SCHEMA_VERSION}: ${tables.length} tables. The base tables hold what LabelDesk is told and`,
      'decides; the kept tables (the read model) are derived from them by SQLite triggers in the',
      'transaction of each write, so reads need not derive them again. Each kept table is declared once',
      'in [db/read-model](../db/read-model/index.ts); the migrations in [db/migrations](../db/migrations)',
      'wrote the schema out as each shipped, and a test holds the migrated schema to the declarations',
      '(test/db/read-model-schema.test.ts). The figures are the benchmarks\' (README.md\'s Benchmarks',
      'section as each kept table came, now [benchmarks.md](benchmarks.md)), on the shared 2-core',
      'development machine.',
      '',
      '## Kept tables',
      '',
      ...READ_MODEL.map((d) => `- ${d.name}: ${d.tables.map((t) => `\`${t.name}\``).join(', ')}`),
      '',
      ...READ_MODEL.flatMap((d) => keptSection(db, d, made)),
      '## Base tables',
      '',
    ];
    for (const t of base) {
      lines.push(`### ${t}`, '', `Made by db/migrations/${made.get(t)}.`, '', ...columnList(db, t).map((l) => l.slice(2)));
      const indexes = indexesOf(db, t);
      if (indexes.length > 0) lines.push('', 'Indexes:', '', ...indexes.map((i) => `- \`${i.name}\` ${oneLine(i.sql).replace(/^CREATE (UNIQUE )?INDEX \w+ /, '')}`));
      const on = triggersOn.get(t) ?? [];
      if (on.length > 0) {
        const by = [...new Set(on.map((x) => declaredOf.get(x.name)!))];
        lines.push('', `Triggers on it keep ${by.join(', ')}: ${on.map((x) => `\`${x.name}\``).join(', ')}.`);
      }
      lines.push('');
    }
    lines.push(
      '## SQLite\'s own tables',
      '',
      `- ${shadow.map((t) => `\`${t}\``).join(', ')}: FTS5's storage of the contentless trigram index \`report_text\`.`,
      `- ${sqliteOwn.map((t) => `\`${t}\``).join(', ')}: AUTOINCREMENT's counters and the planner's statistics (ANALYZE).`,
      '',
    );
    return lines.join('\n');
  } finally {
    db.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(SCHEMA_DOC, schemaDoc());
  console.log(`wrote ${SCHEMA_DOC}`);
}
