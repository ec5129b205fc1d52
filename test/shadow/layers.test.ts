/**
 * The house's arrows point down (design.md): translate/, observability/ and shadow/ never import
 * gateway/; the sandbox's legacy face imports nothing from translate/ or mappings/. What the legacy face
 * does share with the translation is listed here exactly, name by name: for what those names state, a
 * comparison of the legacy face with translated answers (parity, shadow runs over the sandbox) tests
 * nothing, since a defect there is on both sides. The routes the deployed clients use are compared
 * against test/helpers/legacy-upstream.ts instead, which imports nothing of ours.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');
const importsOf = (dir: string) =>
  readdirSync(join(SRC, dir)).flatMap((file) =>
    [...readFileSync(join(SRC, dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${dir}/${file} -> ${m[1]}`),
  );

/** The names a folder's files import from our own modules, as "module name" (the module from the repository's root). */
function namesImported(dir: string): Set<string> {
  const out = new Set<string>();
  for (const file of readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(ROOT, dir, file), 'utf8');
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
      const module = relative(ROOT, resolve(ROOT, dir, m[2]!)).replace(/\.js$/, '.ts');
      for (const name of m[1]!
        .split(',')
        .map(
          (n) =>
            n
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!,
        )
        .filter(Boolean))
        out.add(`${module} ${name}`);
    }
  }
  return out;
}

/**
 * What the legacy face shares with the translation (mappings/ and src/translate/), each name once.
 * The legacy contract itself, on both sides: the bodies of L13 and L18 (legacy-customers), L21, L23
 * and L24 (legacy-merchants), L32 (legacy-person), L26 and L27 with the transfer a reversal takes and
 * their answer (legacy-transfers), the card-payment id of L6 and L19 (payCardIdOf), and the legacy forms
 * of values (`null` and `""` as absent, references, counts, pay-plan variant names). The rest is the
 * current API's or the house's: id prefixes, JWT kinds, value forms, the legacy error shape.
 */
const SHARED = [
  // the legacy contract
  'src/contract/ids.ts payCardIdOf',
  'src/contract/legacy-customers.ts CONSUMER_REQUIRED',
  'src/contract/legacy-customers.ts ORGANISATION_REQUIRED',
  'src/contract/legacy-customers.ts consumerFields',
  'src/contract/legacy-customers.ts eitherName',
  'src/contract/legacy-customers.ts organisationFields',
  'src/contract/legacy-merchants.ts legacyBankAccountBody',
  'src/contract/legacy-merchants.ts legacyBusinessProfileBody',
  'src/contract/legacy-merchants.ts legacyOnboardingBody',
  'src/contract/legacy-person.ts legacyPersonBody',
  'src/contract/legacy-transfers.ts legacyReverseBody',
  'src/contract/legacy-transfers.ts legacyTransferAnswer',
  'src/contract/legacy-transfers.ts legacyTransferBody',
  'src/contract/legacy-transfers.ts noTransferToReverse',
  'src/contract/legacy-transfers.ts transferToReverse',
  'src/contract/zod-helpers.ts blankable',
  'src/contract/zod-helpers.ts legacyCount',
  'src/contract/zod-helpers.ts legacyPayPlanVariant',
  'src/contract/zod-helpers.ts legacyReference',
  'src/contract/zod-helpers.ts legacyVariantName',
  // the current API's forms and the house's
  'src/contract/ids.ts IdKind',
  'src/contract/ids.ts hasIdForm',
  'src/contract/jwt.ts JwtKind',
  'src/contract/jwt.ts looksLikeJwt',
  'src/contract/jwt.ts peekJwtKind',
  'src/contract/zod-helpers.ts amountInt',
  'src/contract/zod-helpers.ts countryCode',
  'src/contract/zod-helpers.ts email',
  'src/contract/zod-helpers.ts idOf',
  'src/contract/zod-helpers.ts longText',
  'src/contract/zod-helpers.ts metadata',
  'src/contract/zod-helpers.ts phone',
  'src/contract/zod-helpers.ts shortText',
  'src/errors.ts PaybridgeError',
  'src/errors.ts legacyErrorBody',
];

describe('layers', () => {
  it('shadow/, translate/ and observability/ import nothing from gateway/; translate/ nothing from shadow/ or sandbox/', () => {
    const upward = [...importsOf('shadow'), ...importsOf('translate'), ...importsOf('observability')].filter((i) =>
      /-> \.\.\/gateway\//.test(i),
    );
    expect(upward).toEqual([]);
    expect(importsOf('translate').filter((i) => /-> \.\.\/(shadow|sandbox)\//.test(i))).toEqual([]);
    expect(importsOf('observability').filter((i) => /-> \.\.\/(shadow|sandbox|translate)\//.test(i))).toEqual([]);
  });

  it("the sandbox's legacy face imports nothing from translate/ or mappings/", () => {
    expect(importsOf('sandbox/legacy').filter((i) => /-> (\.\.\/)+(src\/)?(translate|mappings)\//.test(i))).toEqual([]);
  });

  it('what the legacy face shares with the translation is exactly the list above', () => {
    const translation = new Set([...namesImported('mappings'), ...namesImported('src/translate')]);
    const shared = [...namesImported('src/sandbox/legacy')].filter((name) => translation.has(name));
    expect(shared.sort()).toEqual([...SHARED].sort());
  });

  it("the independent legacy upstream of the shadow tests imports nothing of ours: its legacy answers are the contract's, read by hand", () => {
    const text = readFileSync(join(ROOT, 'test/helpers/legacy-upstream.ts'), 'utf8');
    expect([...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!).filter((from) => from.startsWith('.'))).toEqual([]);
  });
});
