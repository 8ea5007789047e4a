/** docs/schema.md is what scripts/schema-doc.ts writes from the read model and the migrated schema now. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SCHEMA_DOC, schemaDoc } from '../../scripts/schema-doc';

it('docs/schema.md is up to date (npm run docs:schema writes it)', () => {
  const written = readFileSync(SCHEMA_DOC, 'utf8');
  // A whole-text comparison: its first difference says which part moved.
  expect(written, 'docs/schema.md differs from what `npm run docs:schema` writes: run it').toBe(schemaDoc());
});
