/** Answers held to the service's own /openapi.json: the schema of that path, method and status. */
import Ajv2020 from 'ajv/dist/2020';
import { expect } from 'vitest';

export type FitCheck = (path: string, method: string, res: { status: number; body: unknown }) => void;

/** Reads the document of the service at `baseUrl` once; the check it answers fails a test whose answer does not fit. */
export async function openApiFit(baseUrl: string): Promise<FitCheck> {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addSchema(await (await fetch(`${baseUrl}/openapi.json`)).json(), 'doc');
  return (path, method, res) => {
    const pointer = ['paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema']
      .map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/');
    const validate = ajv.compile({ $ref: `doc#/${pointer}` });
    expect(validate(res.body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  };
}
