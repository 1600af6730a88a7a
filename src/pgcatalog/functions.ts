/**
 * Every routine pgcatalog contributes to the function registry (session information, catalog description,
 * privileges, sizes/encodings/keywords). Registered by registerPgCatalog (index.ts).
 */
import type { RoutineDef } from '../functions/registry-types.ts';
import { describeFunctions } from './functions/describe-functions.ts';
import { fallbackFunctions, miscFunctions } from './functions/misc-functions.ts';
import { privilegeFunctions } from './functions/privilege-functions.ts';
import { psqlSupportFunctions } from './functions/psql-support-functions.ts';
import { sessionFunctions } from './functions/session-functions.ts';
import { sequenceFunctions } from './functions/sequence-functions.ts';

export { fallbackFunctions } from './functions/misc-functions.ts';

export const pgcatalogFunctions: readonly RoutineDef[] = [
  ...sessionFunctions,
  ...describeFunctions,
  ...privilegeFunctions,
  ...miscFunctions,
  ...psqlSupportFunctions,
  ...sequenceFunctions,
];

/** pgcatalogFunctions plus the fallbacks, for tests and registries without a string library. */
export const allPgcatalogFunctions: readonly RoutineDef[] = [...pgcatalogFunctions, ...fallbackFunctions];
