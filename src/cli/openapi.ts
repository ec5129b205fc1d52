import { createTranslator } from '../translate/index.js';
import { UsageError } from './util.js';
import { currentDocument, legacyDocument } from '../openapi/documents.js';
import { packageVersion } from '../package-version.js';

export const OPENAPI_USAGE = `paybridge openapi legacy|current
  Prints the OpenAPI 3.1 document of one generation, derived from the zod schemas: the legacy routes
  (the route table of mappings/) as the gateway accepts them, each with its route id and description,
  or the current API as the sandbox serves it. The gateway serves the same at
  GET /_paybridge/openapi/{legacy,current}.json.`;

export async function runOpenapi(argv: string[]): Promise<void> {
  const [which, ...rest] = argv;
  if (which === undefined) throw new UsageError('name one generation, legacy or current (paybridge openapi legacy)');
  if (which !== 'legacy' && which !== 'current')
    throw new UsageError(`${JSON.stringify(which)} is not a generation; name legacy or current`);
  if (rest.length > 0)
    throw new UsageError(
      `unexpected ${rest.map((r) => JSON.stringify(r)).join(' ')}; the document is JSON (OpenAPI 3.1), there are no flags`,
    );
  const doc =
    which === 'legacy'
      ? legacyDocument(createTranslator().routes, packageVersion())
      : currentDocument(packageVersion());
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}
